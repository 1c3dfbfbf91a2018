import FPCore
import FPReaders
import FPStore

/// The rule that one finger is enrolled once: a finger that already opens an account (the
/// same user's other finger, or anyone else's) is not enrolled again, for every door (the
/// command line, the socket API, the fprintd face), as fprintd refuses it (`enroll-duplicate`).
///
/// fpbridge tells at the first scan, as fprintd does, but without a scan of its own: on image
/// readers that match on the host the enrollment's first scan is compared with every print on
/// the reader, with identify's decision (``PrintMatching/enroll(_:refusing:deletingSensorOrphans:)``). fprintd
/// identifies first with a scan that is not part of the print, which is why it counts one
/// stage more.
enum DuplicateFinger {
    /// The prints a new enrollment is compared with (``gallery(_:reader:replacing:)``).
    struct Gallery {
        /// Everyone's usable prints on the reader but the one replaced.
        var records: [PrintRecord] = []
        /// Whether every print file on the reader could be read: only then is a sensor print
        /// found in none of `records` known to be nobody's (a damaged file may stand for it).
        var complete = true
    }

    /// The prints a new enrollment of `user`'s `finger` is compared with: everyone's on the
    /// reader, locked-out users' too (a lockout does not free a finger for another account),
    /// except the print the enrollment replaces. A damaged file is left out, as identification
    /// leaves it out, and makes the gallery incomplete.
    static func gallery(_ environment: AuthEnvironment, reader: ReaderIdentity, replacing finger: Finger) throws -> Gallery {
        let store = environment.prints
        let pass = try StatePass(store.directory)
        var gallery = Gallery()
        for user in try store.userNames() {
            for entry in try store.checkedEntries(user: user, reader: reader, in: pass) {
                guard let record = entry.record else { gallery.complete = false; continue }
                if !(record.user == environment.user && record.finger == finger) { gallery.records.append(record) }
            }
        }
        return gallery
    }

    /// The refusal, naming the print that holds the finger to whom may know it: the user's
    /// own finger always; another user's only where ``AuthEnvironment/mayNameOtherUsersPrints``
    /// (it tells who is enrolled).
    /// The refusal of a finger the sensor holds under a print of its own that no usable record
    /// here stands for, kept because a print file on the reader is damaged (it may be that
    /// file's) or because the sensor would not delete it.
    static func sensorRefusal(_ finger: Finger, reader: ReaderIdentity, _ environment: AuthEnvironment) -> AuthError {
        AuthError(.alreadyEnrolled, "this finger is already stored on the sensor of \(reader) under a print no usable record here "
                  + "stands for (a damaged print file may be its record; `fpbridge repair` finds it); it was not enrolled as "
                  + "\(environment.user)'s \(finger.rawValue) (nothing was saved)")
    }

    static func refusal(_ finger: Finger, heldBy holder: PrintRecord, _ environment: AuthEnvironment) -> AuthError {
        let held = holder.user == environment.user || environment.mayNameOtherUsersPrints
            ? "\(holder.user)'s \(holder.finger.rawValue)" : "another user's finger"
        return AuthError(.alreadyEnrolled, "this finger is already enrolled on \(holder.reader) as \(held); a finger is "
                         + "enrolled once, so it was not enrolled as \(environment.user)'s \(finger.rawValue) (nothing was saved)")
    }
}
