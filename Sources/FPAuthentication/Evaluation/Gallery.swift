import FPCore
import FPStore
import FoundationEssentials

/// The prints one evaluation matches against, each file read and decoded once.
struct Gallery {
    /// The prints offered to the reader, in the order the reader sees them.
    var records: [PrintRecord]
    /// Files left out because they are damaged (identification goes on without them).
    var skipped: [StoreError]

    /// The user's prints on this reader. A damaged one fails verification with its path:
    /// the user must know, and no other user's print is involved.
    static func verification(_ environment: AuthEnvironment, reader: ReaderIdentity, fingers: Set<Finger>?) throws -> Gallery {
        let records = try environment.prints.checkedPrints(user: environment.user, reader: reader)
            .filter { fingers?.contains($0.finger) ?? true }
        if records.isEmpty {
            let which = fingers.map { " (" + $0.map(\.rawValue).sorted().joined(separator: ", ") + ")" } ?? ""
            throw AuthError(.biometryNotEnrolled, "\(environment.user) has no print enrolled\(which) on \(reader)")
        }
        return Gallery(records: records, skipped: [])
    }

    /// Everyone's prints on this reader (only `claimed`'s, when the person named themselves),
    /// except users who are locked out (a locked-out user is never identified) and damaged
    /// files (one user's bad file must not stop everyone else).
    static func identification(_ environment: AuthEnvironment, reader: ReaderIdentity, claimed: String? = nil) throws -> Gallery {
        let store = environment.prints
        let rules = environment.lockoutRules
        var gallery = Gallery(records: [], skipped: [])
        var anyEnrolled = false
        // The state directory and its top folders checked once, not once a user: with
        // thousands enrolled, those checks were most of a request's work before the scan.
        let pass = try StatePass(store.directory)
        let counters = environment.counters
        for user in try store.userNames() where claimed == nil || claimed == user {
            let entries = try store.checkedEntries(user: user, reader: reader, in: pass)
            guard !entries.isEmpty else { continue }
            anyEnrolled = true
            let scope = CounterScope.user(user)
            if rules.userBlock(counters.counter(for: scope, in: pass), times: counters.times(user: user, in: pass), user: user,
                               path: counters.path(for: scope)) != nil { continue }
            for entry in entries {
                switch entry {
                case .record(let record): gallery.records.append(record)
                case .damaged(let error): gallery.skipped.append(error)
                }
            }
        }
        if gallery.records.isEmpty, let claimed {
            // One answer for no such user, no print and a locked-out user: the kiosk says the
            // same ("use your PIN") for each, and an unknown badge never reaches here.
            throw AuthError(.biometryNotEnrolled, "\(claimed) has no print on \(reader) that can be used now "
                            + "(none enrolled, the user is locked out, or the files are damaged)")
        }
        if gallery.records.isEmpty {
            throw AuthError(.biometryNotEnrolled, anyEnrolled
                ? "no print on \(reader) can be used now (their users are locked out, or their files are damaged)"
                : "nobody has a print enrolled on \(reader)")
        }
        return gallery
    }
}
