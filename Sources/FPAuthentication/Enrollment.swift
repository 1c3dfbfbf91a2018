import FPCore
import FPReaders
import FPStore
import Foundation

/// What an enrollment reports, in order.
public enum EnrollmentUpdate: Sendable, Hashable {
    case stage(completed: Int, total: Int)
    case retry(RetryReason)
    /// The print is stored.
    case saved(PrintRecord)
}

/// Adding and removing the user's prints, on disk and, for match-on-chip readers, on the sensor.
public struct Enrollment: Sendable {
    public let environment: AuthEnvironment

    public init(environment: AuthEnvironment) {
        self.environment = environment
    }

    /// Enrolls a finger. Refuses one already enrolled on this reader unless `replace`.
    ///
    /// The old print is overwritten only once the new one is complete, except on
    /// match-on-chip readers, where the sensor would refuse the same finger twice:
    /// there the old template is deleted from the sensor first.
    public func enroll(_ finger: Finger, replace: Bool) -> AsyncThrowingStream<EnrollmentUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run(finger, replace: replace) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: AuthError(error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(_ finger: Finger, replace: Bool, emit: @Sendable (EnrollmentUpdate) -> Void) async throws {
        guard let reader = environment.reader else {
            throw AuthError(.biometryNotAvailable, "no fingerprint reader is available")
        }
        let identity = await reader.info.identity
        let store = environment.prints
        if let existing = try store.print(user: environment.user, reader: identity, finger: finger) {
            guard replace else {
                throw AuthError(.alreadyEnrolled,
                                "\(environment.user)'s \(finger.rawValue) is already enrolled on \(identity); use --replace to enroll it again")
            }
            if existing.storedOnDevice { try await deleteFromSensor(existing, reader: reader) }
        }
        let template = PrintTemplate(finger: finger, username: environment.user, enrollDate: Date())
        for try await event in reader.enroll(template) {
            switch event {
            case .stageCompleted(let completed, let total): emit(.stage(completed: completed, total: total))
            case .retry(let reason): emit(.retry(reason))
            case .enrolled(let print):
                let record = PrintRecord(user: environment.user, finger: finger, reader: identity,
                                         enrolledAt: Date(), storedOnDevice: print.storedOnDevice, print: print.data)
                try store.withLock { try store.save(record) }
                emit(.saved(record))
            }
        }
    }

    /// Deletes prints (one finger, or all with nil) of the user on this reader,
    /// from the sensor too when they live there. Returns what was deleted.
    public func delete(_ finger: Finger?) async throws(AuthError) -> [PrintRecord] {
        do {
            let store = environment.prints
            let identity = await environment.reader?.info.identity
            var records = try store.prints(user: environment.user, reader: identity)
            if let finger { records = records.filter { $0.finger == finger } }
            if records.isEmpty {
                let what = finger.map { "\(environment.user)'s \($0.rawValue) is" } ?? "\(environment.user) has no prints"
                throw AuthError(.notFound, finger == nil ? what + " enrolled" : what + " not enrolled")
            }
            for record in records {
                if record.storedOnDevice {
                    guard let reader = environment.reader, await reader.info.identity == record.reader else {
                        throw AuthError(.biometryNotAvailable,
                                        "the \(record.finger.rawValue) print lives on reader \(record.reader); connect it to delete the print there")
                    }
                    try await deleteFromSensor(record, reader: reader)
                }
                _ = try store.withLock { try store.delete(user: record.user, reader: record.reader, finger: record.finger) }
            }
            return records
        } catch {
            throw AuthError(error)
        }
    }

    private func deleteFromSensor(_ record: PrintRecord, reader: any FingerprintReader) async throws {
        guard await reader.info.features.contains(.storageDelete) else { return }
        do {
            try await reader.deleteStoredPrint(record.print)
        } catch ReaderError.printNotFound {
            // Already gone from the sensor: nothing left to delete there.
        }
    }
}
