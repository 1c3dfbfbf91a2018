import FPCore
import FPReaders
import FPStore

/// The rule that one finger is enrolled once: a finger that already opens an account (the
/// same user's other finger, or anyone else's) is not enrolled again, for every door (the
/// command line, the socket API, the fprintd face), as fprintd refuses it (`enroll-duplicate`).
///
/// fpbridge tells at the first scan, as fprintd does, but without a scan of its own: on image
/// readers that match on the host the enrollment's first scan is compared with every print on
/// the reader, with identify's decision (``PrintMatching/enroll(_:refusing:)``). fprintd
/// identifies first with a scan that is not part of the print, which is why it counts one
/// stage more.
enum DuplicateFinger {
    /// The prints a new enrollment of `user`'s `finger` is compared with: everyone's on the
    /// reader, locked-out users' too (a lockout does not free a finger for another account),
    /// except the print the enrollment replaces. A damaged file is left out, as identification
    /// leaves it out.
    static func gallery(_ environment: AuthEnvironment, reader: ReaderIdentity, replacing finger: Finger) throws -> [PrintRecord] {
        let store = environment.prints
        let pass = try StatePass(store.directory)
        var records: [PrintRecord] = []
        for user in try store.userNames() {
            for case .record(let record) in try store.checkedEntries(user: user, reader: reader, in: pass)
            where !(record.user == environment.user && record.finger == finger) {
                records.append(record)
            }
        }
        return records
    }

    /// The refusal, naming the print that holds the finger to whom may know it: the user's
    /// own finger always; another user's only where ``AuthEnvironment/mayNameOtherUsersPrints``
    /// (it tells who is enrolled).
    static func refusal(_ finger: Finger, heldBy holder: PrintRecord, _ environment: AuthEnvironment) -> AuthError {
        let held = holder.user == environment.user || environment.mayNameOtherUsersPrints
            ? "\(holder.user)'s \(holder.finger.rawValue)" : "another user's finger"
        return AuthError(.alreadyEnrolled, "this finger is already enrolled on \(holder.reader) as \(held); a finger is "
                         + "enrolled once, so it was not enrolled as \(environment.user)'s \(finger.rawValue) (nothing was saved)")
    }
}
