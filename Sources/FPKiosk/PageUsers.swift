import Foundation

/// The local users whose processes may talk to the kiosk: its own user, and those named by
/// `--page-user` (the browser's user, when the kiosk runs as an account of its own).
///
/// Loopback is not a boundary between the users of one machine: without this, any local
/// process could read the event stream (the welcomed user's login session with it), spend the
/// PIN pad's budget or try PINs, and keep the reader armed. The kiosk's own user is always in:
/// a process of that uid could attach to the kiosk and read its memory anyway.
package struct PageUsers: Sendable, Equatable, CustomStringConvertible {
    /// The allowed uids, the kiosk's own first.
    package let uids: [uid_t]
    /// Each uid as the refusal names it: `uid 998 (the kiosk's own)`, `uid 1000 (--page-user kiosk)`.
    private let labels: [String]

    /// The kiosk's own uid (`own`) and each of `names`: a user name, or a uid in digits.
    /// Throws words naming the first that is neither.
    package init(own: uid_t = geteuid(), naming names: [String] = []) throws(PageUserError) {
        var uids = [own], labels = ["uid \(own) (the kiosk's own)"]
        for name in names {
            let uid = try Self.uid(of: name)
            guard !uids.contains(uid) else { continue }
            uids.append(uid)
            labels.append(String(uid) == name ? "uid \(uid)" : "uid \(uid) (--page-user \(name))")
        }
        self.uids = uids
        self.labels = labels
    }

    package func allows(_ uid: uid_t) -> Bool { uids.contains(uid) }

    package var description: String { labels.joined(separator: ", ") }

    /// A uid in digits stands for itself (a browser's user may have no name in this machine's
    /// user database, e.g. in a container); anything else must be a user name it knows.
    private static func uid(of name: String) throws(PageUserError) -> uid_t {
        if let uid = uid_t(name) { return uid }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard !name.isEmpty, getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else {
            throw PageUserError("--page-user \(name): no such user on this machine (give a user name or a uid)")
        }
        return entry.pw_uid
    }
}

/// Why a `--page-user` was refused, in words.
package struct PageUserError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
