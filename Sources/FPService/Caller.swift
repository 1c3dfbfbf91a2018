import Foundation

/// The user behind a connection and what the groups let them do.
package struct Caller: Sendable, Hashable {
    package var credentials: PeerCredentials
    package var user: String
    /// Root, or a member of the admin group: may act for any user.
    package var isAdmin: Bool
    /// A member of the kiosk group: may identify, and evaluate for the user identified.
    package var isKiosk: Bool

    /// Resolves the uid to its name and groups through the system's user database.
    package init(_ credentials: PeerCredentials, configuration: ServiceConfiguration) throws(ServiceRefusal) {
        self.credentials = credentials
        guard let user = Self.name(of: credentials.uid) else {
            throw ServiceRefusal.forbidden("uid \(credentials.uid) has no user name on this system")
        }
        self.user = user
        let groups = Self.groups(of: user, primary: credentials.gid)
        isAdmin = credentials.uid == 0 || groups.contains(configuration.adminGroup)
        isKiosk = groups.contains(configuration.kioskGroup)
    }

    /// The user behind a uid the bus daemon reported (a D-Bus caller), with its primary group
    /// from the user database.
    package init(uid: UInt32, configuration: ServiceConfiguration) throws(ServiceRefusal) {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil else {
            throw .forbidden("uid \(uid) has no user name on this system")
        }
        try self.init(PeerCredentials(pid: 0, uid: uid, gid: entry.pw_gid), configuration: configuration)
    }

    static func name(of uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return nil
        }
        return String(cString: name)
    }

    /// The names of the user's groups in the group database (primary included).
    private static func groups(of user: String, primary: UInt32) -> Set<String> {
        var count: Int32 = 64
        var ids = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(user, primary, &ids, &count) < 0 {
            ids = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(user, primary, &ids, &count) >= 0 else { return [] }
        }
        var names: Set<String> = []
        for id in ids.prefix(Int(count)) {
            var entry = group()
            var result: UnsafeMutablePointer<group>?
            var buffer = [CChar](repeating: 0, count: 16_384)
            if getgrgid_r(id, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name {
                names.insert(String(cString: name))
            }
        }
        return names
    }
}
