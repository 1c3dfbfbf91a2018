import FPCore
import FPReaders
import FPStore
import FoundationEssentials

/// What an enrollment reports, in order.
public enum EnrollmentUpdate: Sendable, Hashable {
    /// The passcode was accepted; the reader now waits for the finger.
    case presentFinger(ScanType, stages: Int)
    /// A scan was accepted: `completed` of `total` stages.
    case stage(completed: Int, total: Int)
    /// The reader wants the finger again; not a failure.
    case retry(RetryReason)
    /// The print is stored.
    case saved(PrintRecord)
}

/// What allows an enrollment: the one place that says who may add a finger.
package enum EnrollmentAuthority: Sendable {
    /// The user's fpbridge passcode, entered through the prompt: iOS's rule, and the only one
    /// the CLI, the socket API and `LocalAuthentication` offer.
    case passcode(any AuthPrompt)
    /// The desktop's own authorization: fpbridged's fprintd face enrolls after polkit granted
    /// `net.reactivated.fprint.device.enroll`, which on a desktop asks for the user's login
    /// password. That password is also what lifts a lockout there, so no fpbridge passcode is
    /// needed (one that is set is left alone, and a passcode change meanwhile still stops the save).
    case desktop
    /// The passcode entered already, as a security key's PIN for a token with the bio
    /// enrollment permission (``PasskeyPINEntry``): the record it matched must still be the
    /// user's passcode at the save.
    case entered(PasscodeRecord)
}

extension EnrollmentAuthority {
    /// Whether the user must have a passcode: every authority but the desktop's.
    var needsPasscode: Bool {
        switch self {
        case .passcode, .entered: true
        case .desktop: false
        }
    }
}

/// Adding and removing the user's prints, on disk and, for match-on-chip readers, on the sensor.
///
/// As on iOS, enrolling needs a passcode to be set and entered first: a print
/// whose owner has no passcode could never be recovered from a lockout, and
/// whoever holds the reader must not add a finger to someone else's account.
public struct Enrollment: Sendable {
    /// The context whose user, reader and state directory are used.
    public let context: AuthenticationContext

    /// The most prints one user may hold, over every reader: a quota, so that no user of a
    /// shared service fills its disk with prints (a test-mode client can name any number of
    /// fake readers) and leaves nothing for anyone else.
    public static let maximumPrintsPerUser = 50

    package init(context: AuthenticationContext) {
        self.context = context
    }

    private var environment: AuthEnvironment { context.environment }

    /// Enrolls a finger after the user's passcode is entered through `prompt`.
    /// Refuses one already enrolled on this reader unless `replace`. Each scan
    /// must come within the configured scan timeout.
    ///
    /// The old print is overwritten only once the new one is complete, except on
    /// match-on-chip readers, where the sensor would refuse the same finger twice:
    /// there the old template is deleted from the sensor first.
    public func enroll(_ finger: Finger, replace: Bool, prompt: any AuthPrompt) -> AsyncThrowingStream<EnrollmentUpdate, any Error> {
        enroll(finger, replace: replace, authority: .passcode(prompt))
    }

    /// Enrolls a finger with the given authority (``EnrollmentAuthority``). `beforeSave`, when
    /// given, runs after the last scan and before the save, with the reader still held: what
    /// it throws ends the enrollment with nothing saved (a security key's host that stopped
    /// asking for samples).
    package func enroll(_ finger: Finger, replace: Bool, authority: EnrollmentAuthority,
                        beforeSave: (@Sendable () async throws -> Void)? = nil) -> AsyncThrowingStream<EnrollmentUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run(finger, replace: replace, authority: authority, beforeSave: beforeSave) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: AuthError(error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(_ finger: Finger, replace: Bool, authority: EnrollmentAuthority, beforeSave: (@Sendable () async throws -> Void)?,
                     emit: @escaping @Sendable (EnrollmentUpdate) -> Void) async throws {
        guard let reader = environment.reader else {
            throw AuthError(.biometryNotAvailable, "no fingerprint reader is available")
        }
        if authority.needsPasscode, let problem = context.passcodeSetProblem() {
            throw problem.code == .passcodeNotSet
                ? AuthError(.passcodeNotSet, "\(environment.user) has no passcode; set one before enrolling a finger")
                : problem
        }
        // Refused before the user is asked for anything; checked again once the reader is taken.
        let identity = await reader.info.identity
        if !replace, try environment.prints.print(user: environment.user, reader: identity, finger: finger) != nil {
            throw alreadyEnrolled(finger, identity)
        }
        let passcode: PasscodeRecord?
        switch authority {
        case .passcode(let prompt):
            passcode = try await PasscodeSession(context: context, prompt: prompt, reason: "Enter your passcode to add a finger")
                .verify().record
        case .desktop:
            // Whatever passcode there is now must still be the one at the save.
            do { passcode = try environment.passcodes.record(user: environment.user) } catch { throw AuthError(error) }
        case .entered(let record):
            passcode = record
        }
        // The reader is taken only now, for the scans: the passcode prompt held none.
        try await context.withReader { reader in
            guard let reader else { throw AuthError(.biometryNotAvailable, "no fingerprint reader is available") }
            try await scanAndSave(finger, replace: replace, passcode: passcode, reader: reader, beforeSave: beforeSave, emit: emit)
        }
    }

    /// The scans and the save, with the reader held.
    private func scanAndSave(_ finger: Finger, replace: Bool, passcode: PasscodeRecord?, reader: any FingerprintReader,
                             beforeSave: (@Sendable () async throws -> Void)?,
                             emit: @escaping @Sendable (EnrollmentUpdate) -> Void) async throws {
        let identity = await reader.info.identity
        let store = environment.prints
        // Read again: the finger may have been enrolled while the prompt waited without the reader.
        let existing = try store.print(user: environment.user, reader: identity, finger: finger)
        if existing != nil && !replace { throw alreadyEnrolled(finger, identity) }
        if let existing, existing.storedOnDevice { try await deleteFromSensor(existing, reader: reader) }
        let info = await reader.info
        emit(.presentFinger(info.scanType, stages: info.enrollmentStages))
        let template = PrintTemplate(finger: finger, username: environment.user, enrollDate: Date())
        let stageTimeout = Duration.milliseconds(Int(environment.configuration.scanTimeoutSeconds * 1000))
        let duplicates = try DuplicateFinger.gallery(environment, reader: identity, replacing: finger)
        let scans = (reader as? any PrintMatching)?.enroll(template, refusing: duplicates.records.map(\.print),
                                                             deletingSensorOrphans: duplicates.complete) ?? reader.enroll(template)
        let enrolled: EnrolledPrint
        do {
            enrolled = try await withStageTimeout(stageTimeout) { progress in
                var enrolled: EnrolledPrint?
                for try await event in scans {
                    progress()
                    switch event {
                    case .stageCompleted(let completed, let total): emit(.stage(completed: completed, total: total))
                    case .retry(let reason): emit(.retry(reason))
                    case .enrolled(let print): enrolled = print
                    }
                }
                guard let enrolled else { throw AuthError(.readerFailure, "the reader ended the enrollment without a print") }
                return enrolled
            }
        } catch let duplicate as DuplicateScan {
            guard let index = duplicate.galleryIndex else { throw DuplicateFinger.sensorRefusal(finger, reader: identity, environment) }
            throw DuplicateFinger.refusal(finger, heldBy: duplicates.records[index], environment)
        }
        let record = PrintRecord(user: environment.user, finger: finger, reader: identity,
                                 enrolledAt: Date(), storedOnDevice: enrolled.storedOnDevice, print: enrolled.data)
        // Checked again under the lock: two enrollments of one finger must not both succeed, and
        // a passcode removed or changed during the scans (removal takes the prints with it) leaves
        // no print behind.
        let saved: PrintRecord?
        do {
            try await beforeSave?()
            saved = try save(record, replace: replace, passcode: passcode)
        } catch {
            // Not saved: the sensor must not keep a copy that no file stands for. Most refusals
            // here are a cancel, which would cancel the delete too: it runs in a task of its own.
            if record.storedOnDevice {
                await Task { try? await deleteFromSensor(record, reader: reader) }.value
            }
            throw error
        }
        guard let saved else {
            if record.storedOnDevice { try? await deleteFromSensor(record, reader: reader) }
            throw alreadyEnrolled(finger, identity)
        }
        emit(.saved(saved))
    }

    /// Saves a finished enrollment under the lock; nil when the finger was enrolled meanwhile
    /// and is not to be replaced.
    private func save(_ record: PrintRecord, replace: Bool, passcode: PasscodeRecord?) throws -> PrintRecord? {
        var record = record
        let store = environment.prints
        let identity = record.reader, finger = record.finger
        return try store.withLock { () throws -> PrintRecord? in
            // A cancel that came after the last scan, while this waited for the lock included,
            // saves nothing: whoever cancelled (the fprintd face's Stop, Release or sleep) tells
            // its client the enrollment failed.
            try Task.checkCancellation()
            let current = try environment.passcodes.record(user: environment.user)
            // The same passcode (a PIN digest filled in meanwhile is no change), or still none.
            guard passcode.map({ $0.isSamePasscode(as: current) }) ?? (current == nil) else {
                throw AuthError(.passcodeNotSet, "\(environment.user)'s passcode was removed or changed during the enrollment; "
                                + "the print was not saved (enter the new passcode and enroll again)")
            }
            let existing = try store.print(user: environment.user, reader: identity, finger: finger)
            if !replace, existing != nil { return nil }
            if existing == nil, try store.entries(user: environment.user, reader: nil).count >= Self.maximumPrintsPerUser {
                throw AuthError(.invalidInput, "\(environment.user) already has \(Self.maximumPrintsPerUser) prints, the most one user "
                                + "may hold; delete one to enroll another")
            }
            // The counters this print can be matched against, at their fixed size: a print that
            // could not be counted on a full disk is not saved.
            try environment.counters.reserve(.user(environment.user))
            let readerScope = CounterScope.reader(driver: identity.driver, deviceID: identity.deviceID)
            try environment.counters.reserve(readerScope)
            // Which of the reader's lockouts this print predates, by epoch, not by clock. A reader
            // counter that cannot be read stops the enrollment (repair it first).
            record.readerEpoch = LockoutRules.enrollmentEpoch(try environment.counters.load(readerScope))
            try store.save(record)
            try KeyRules.enrollmentChanged(user: environment.user, directory: environment.stateDirectory)
            // Reported as read back: the file keeps milliseconds, so the stream and a later list
            // give the same instant.
            return try store.print(user: environment.user, reader: identity, finger: finger) ?? record
        }
    }

    private func alreadyEnrolled(_ finger: Finger, _ reader: ReaderIdentity) -> AuthError {
        AuthError(.alreadyEnrolled, "\(environment.user)'s \(finger.rawValue) is already enrolled on \(reader); "
                  + "replace it to enroll it again")
    }

    /// Deletes prints (one finger, or all with nil) of the user on this reader,
    /// from the sensor too when they live there. Returns what was deleted.
    ///
    /// - Throws: `AuthErrorCause.sensorCopyKept` once every record is deleted when the reader
    ///   refused to delete its copy of one (or, with `reportingLostSensorCopies`, no longer
    ///   held it); `AuthErrorCode.biometryNotAvailable`, with nothing deleted, when a print's
    ///   sensor copy lives on a reader not at hand; `AuthErrorCode.notFound` when there is nothing to delete.
    public func delete(_ finger: Finger?, reportingLostSensorCopies: Bool = false) async throws(AuthError) -> [PrintRecord] {
        let identity = await environment.reader?.info.identity
        var records: [PrintRecord]
        do { records = try environment.prints.prints(user: environment.user, reader: identity) } catch { throw AuthError(error) }
        if let finger { records = records.filter { $0.finger == finger } }
        if records.isEmpty {
            let what = finger.map { "\(environment.user)'s \($0.rawValue) is" } ?? "\(environment.user) has no prints"
            throw AuthError(.notFound, finger == nil ? what + " enrolled" : what + " not enrolled")
        }
        return try await delete(records, reportingLostSensorCopies: reportingLostSensorCopies)
    }

    /// Deletes, as far as it can, the sensor's copies of prints whose files are already gone
    /// (removing the passcode does this after it removed the files under the lock). A copy on
    /// a reader that is not at hand stays there; it matches nothing without its file.
    /// - Returns: the records whose copy stays on a sensor: on a reader not at hand, or one
    ///   whose delete failed (the files are gone either way; this only tells the user).
    @discardableResult
    func deleteFromSensor(_ records: [PrintRecord]) async -> [PrintRecord] {
        let stored = records.filter(\.storedOnDevice)
        guard environment.reader != nil, !stored.isEmpty else { return stored }
        let left = try? await context.withReader { reader -> [PrintRecord] in
            guard let reader else { return stored }
            let identity = await reader.info.identity
            var left: [PrintRecord] = []
            for record in stored {
                guard record.reader == identity else {
                    left.append(record)
                    continue
                }
                do {
                    try await deleteFromSensor(record, reader: reader)
                } catch {
                    left.append(record)  // cleanup only: the file is gone, so the copy matches nothing
                }
            }
            return left
        }
        return left ?? stored
    }

    /// Deletes each record, its sensor copy first. A copy the sensor refuses to delete does not
    /// keep the record: the user asked that the finger sign nobody in, and a copy without its
    /// record matches nothing (fprintd deletes the record too). Such copies are reported at
    /// the end, after every record went (``AuthErrorCause/sensorCopyKept``); so are copies the
    /// sensor had lost already with `reportingLostSensorCopies` (fprintd's face).
    private func delete(_ records: [PrintRecord], reportingLostSensorCopies: Bool) async throws(AuthError) -> [PrintRecord] {
        // Every sensor copy's reader must be at hand before anything is deleted: a record deleted
        // before the refusal, its sensor copy kept, would otherwise go unreported (issue 53).
        let present = await environment.reader?.info.identity
        if let away = records.first(where: { $0.storedOnDevice && $0.reader != present }) {
            throw Self.readerAway(away)
        }
        var sensorProblems: [(PrintRecord, ReaderError)] = []
        do {
            let store = environment.prints
            for record in records {
                if record.storedOnDevice {
                    let problem = try await context.withReader { reader -> ReaderError? in
                        guard let reader, await reader.info.identity == record.reader else { throw Self.readerAway(record) }
                        do {
                            try await deleteFromSensor(record, reader: reader, lostIsDeleted: !reportingLostSensorCopies)
                            return nil
                        } catch let error as ReaderError {
                            return error
                        }
                    }
                    if let problem { sensorProblems.append((record, problem)) }
                }
                try store.withLock {
                    if try store.delete(user: record.user, reader: record.reader, finger: record.finger) {
                        try KeyRules.enrollmentChanged(user: record.user, directory: environment.stateDirectory)
                    }
                }
            }
        } catch {
            // The reader went away part way: the copies it kept before that are said too.
            let failure = AuthError(error)
            guard let kept = Self.sensorCopiesKept(sensorProblems) else { throw failure }
            throw AuthError(failure.code, failure.message + "; before that, " + kept.message, retryAfter: failure.retryAfter,
                            readerFault: failure.readerFault, cause: failure.cause)
        }
        if let kept = Self.sensorCopiesKept(sensorProblems) { throw kept }
        return records
    }

    /// A print whose sensor copy lives on a reader that is not at hand.
    private static func readerAway(_ record: PrintRecord) -> AuthError {
        AuthError(.biometryNotAvailable,
                  "the \(record.finger.rawValue) print lives on reader \(record.reader); connect it to delete the print there")
    }

    /// The error that reports records deleted whose sensor copies stayed, or nil when none did.
    private static func sensorCopiesKept(_ problems: [(PrintRecord, ReaderError)]) -> AuthError? {
        guard let (record, problem) = problems.first else { return nil }
        let what = problems.count == 1 ? "\(record.user)'s \(record.finger.rawValue)"
                                       : "\(problems.count) of \(record.user)'s prints"
        let reason = problem == .printNotFound ? "the reader no longer held it"
                                               : "the reader refused to delete it: \(AuthError(problem).message)"
        return AuthError(AuthError(problem).code,
                         "deleted \(what) here, but not the reader's own copy (\(reason)); without its record a copy matches nothing",
                         cause: .sensorCopyKept)
    }

    /// Deletes the sensor's copy of `record`. A copy the sensor no longer holds is deleted as
    /// far as anyone can tell, unless `lostIsDeleted` is false (it is then
    /// ``ReaderError/printNotFound``, which fprintd's face reports as fprintd does).
    private func deleteFromSensor(_ record: PrintRecord, reader: any FingerprintReader, lostIsDeleted: Bool = true) async throws {
        guard await reader.info.features.contains(.storageDelete) else { return }
        do {
            try await reader.deleteStoredPrint(record.print)
        } catch ReaderError.printNotFound where lostIsDeleted {
            // Already gone from the sensor: nothing left to delete there.
        }
    }
}

/// Runs an enrollment that must show progress (an accepted scan or a retry) at
/// least once per `timeout`: no enrollment waits for a finger forever.
private func withStageTimeout<T: Sendable>(_ timeout: Duration,
                                           _ body: @escaping @Sendable (@escaping @Sendable () -> Void) async throws -> T) async throws -> T {
    let watchdog = StageWatchdog(timeout: timeout)
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body { watchdog.touch() } }
        group.addTask {
            try await watchdog.wait()
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw AuthError(.timedOut, "no finger was presented within \(SecondsText.words(timeout.inSeconds)); the enrollment stopped")
        }
        return value
    }
}
