import FPAuthentication
import FPReaders
import Foundation

extension FprintdFace {
    /// EnrollStart: an enrollment authorized by polkit's `enroll` action instead of the
    /// passcode (``EnrollmentAuthority/desktop``); every other rule of the engine holds (the
    /// quota, a finger already enrolled, keys bound to the prints invalidated).
    func enrollStart(_ device: FprintdDevice, _ call: BusCall) async throws {
        let (holder, target, configuration) = try claimed(device, call)
        guard let finger = FprintdFinger.finger(call.string(0) ?? "") else {
            throw BusError(.invalidFingername, "Invalid finger name")
        }
        // A finger enrolled already is enrolled again, as with fprintd; but fprintd deletes the
        // old print before the first scan, and fpbridge replaces it only once the new one is
        // complete, so that a cancelled or failed enrollment loses nothing. A print that cannot
        // be read stops it here (fail closed), as it would any other method.
        _ = try enrolled(device, user: holder.user)
        // A kiosk's armed identification would take the first scan as a stranger's: refused, as
        // on the socket (KioskReaderClaims); the desktop shows fprintd's "in use".
        if readers.claims.isArmed(device.info.identity) {
            throw BusError(.alreadyInUse, KioskReaderClaims.held(device.info.identity).message)
        }
        let action = Action(kind: .enroll, signal: "EnrollStatus", ending: \.enroll, success: "enroll-completed")
        try begin(action, device, call, target: target, configuration: configuration, busy: "Enrollment already in progress") { [self] context in
            for try await update in context.enrollAuthorizedByDesktop(finger, replace: true) {
                switch update {
                case .presentFinger: break
                case .stage(let completed, let total) where completed < total:
                    await device.fingerRelay.caughtUp()
                    await emit(device, "EnrollStatus", [.string("enroll-stage-passed"), .bool(false)])
                case .stage: break
                case .saved(let record): return .saved(record)
                case .retry(let reason):
                    await device.fingerRelay.caughtUp()
                    await emit(device, "EnrollStatus", [.string(Self.retryResult("enroll", reason)), .bool(false)])
                }
            }
            // The stream ended without a saved print: cancelled, or the engine gave up.
            return nil
        }
    }
}
