import FPAuthentication
import FPReaders
import Foundation

extension FprintdFace {
    /// The user's fingers enrolled on this device, in fprintd's names and finger order. A print
    /// file that cannot be read is an error, not a finger less (fail closed: `pam_fprintd`
    /// then falls to the password rather than trusting a partial list).
    func listFingers(_ device: FprintdDevice, user: String, caller: Caller) throws(BusError) -> [String] {
        let fingers = try enrolled(device, user: user)
        guard !fingers.isEmpty else { throw BusError(.noEnrolledPrints, "No fingerprints enrolled") }
        return fingers.map(FprintdFinger.name)
    }

    func enrolled(_ device: FprintdDevice, user: String) throws(BusError) -> [Finger] {
        let store = PrintStore(directory: service.stateDirectory, cache: printCaches.cache(for: service.stateDirectory))
        // `prints` fails on the first damaged file, naming it.
        do { return try store.prints(user: user, reader: device.info.identity).map(\.finger).sorted() } catch {
            throw BusError(.internalError, "a print of \(user) is damaged or cannot be read: \(error)")
        }
    }

    /// DeleteEnrolledFingers(username): the old call that needs no claim (it takes one for the
    /// time of the call when the device is free).
    func deleteAll(_ device: FprintdDevice, _ sender: String, user: String, caller: Caller) async throws -> [BusValue] {
        let borrowed = try device.state.withLock { state throws(BusError) -> Bool in
            if let holder = state.holder {
                guard holder.sender == sender else { throw BusError(.alreadyInUse, "Device already in use by another user") }
                return false
            }
            state.holder = FprintdDevice.Holder(sender: sender, user: user, caller: caller)
            return true
        }
        defer {
            if borrowed { device.state.withLock { if $0.holder?.sender == sender, $0.holder?.watch == 0 { $0.holder = nil } } }
        }
        return try await remove(device, user: user, caller: caller, finger: nil)
    }

    /// DeleteEnrolledFingers2 and DeleteEnrolledFinger: the claiming user's prints on this device.
    func delete(_ device: FprintdDevice, _ sender: String, finger: Finger?) async throws -> [BusValue] {
        let holder = try device.holder(sender)
        return try await remove(device, user: holder.user, caller: holder.caller, finger: finger)
    }

    /// Deletes in the device's turn. A deletion of the same client's that runs already is
    /// waited for, as fprintd runs a client's deletions in turn; anything else running is
    /// `AlreadyInUse`.
    private func remove(_ device: FprintdDevice, user: String, caller: Caller, finger: Finger?) async throws -> [BusValue] {
        while true {
            let (turn, work) = try device.state.withLock { state throws(BusError) -> (Task<Void, Never>?, Task<Result<[BusValue], any Error>, Never>?) in
                // A Release under way took what ran already: a deletion started now would outlive the claim.
                if state.holder?.releasing == true { throw BusError(.alreadyInUse, "Device is being released") }
                if let running = state.running {
                    guard running.kind == .delete, let task = running.task else {
                        throw BusError(.alreadyInUse, "Another operation is already in progress")
                    }
                    return (task, nil)
                }
                var running = FprintdDevice.Running(kind: .delete)
                let id = running.id
                let work = Task { [self] () -> Result<[BusValue], any Error> in
                    defer { device.finished(id) }
                    do { return .success(try await deletePrints(device, user: user, caller: caller, finger: finger)) } catch {
                        return .failure(error)
                    }
                }
                running.task = Task { _ = await work.value }
                state.running = running
                return (nil, work)
            }
            if let work { return try await work.value.get() }
            await turn?.value
        }
    }

    private func deletePrints(_ device: FprintdDevice, user: String, caller: Caller, finger: Finger?) async throws -> [BusValue] {
        let target = try target(user, caller: caller)
        do {
            let configuration = try target.configuration()
            _ = try await readers.with(target, required: true, wait: true, timeout: configuration.scanTimeoutSeconds) { [self] reader in
                try await target.context(reader: reader, configuration: configuration, printCaches: printCaches).deletePrintsReportingLostSensorCopies(finger)
            }
            return []
        } catch {
            let problem = AuthError(error)
            if problem.code == .notFound {
                throw BusError(.noEnrolledPrints, finger.map { "Fingerprint for finger \(FprintdFinger.name($0)) is not enrolled" }
                               ?? "No fingerprint enrolled")
            }
            // The records went, the reader kept its copy: fprintd's name for that.
            if problem.cause == .sensorCopyKept {
                throw BusError(.printsNotDeletedFromDevice, "Failed to delete print from device storage: \(problem.message)")
            }
            throw BusError(.printsNotDeleted, "Failed to delete the prints of \(user): \(problem.message)")
        }
    }
}
