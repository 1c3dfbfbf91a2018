import Foundation

/// The user behind a connection and what the groups let them do.
package struct Caller: Sendable, Hashable {
    package var credentials: PeerCredentials
    package var user: String
    /// Root, or a member of the admin group: may act for any user.
    package var isAdmin: Bool
    /// A member of the kiosk group: may identify, and evaluate for the user identified.
    package var isKiosk: Bool
    /// The ids of the user's groups in the group database (primary included): the rights a
    /// file the client names is opened with (``ClientScript``).
    package var groupIDs: [gid_t]

    /// Resolves the uid to its name and groups through the system's user database.
    package init(_ credentials: PeerCredentials, configuration: ServiceConfiguration) throws(ServiceRefusal) {
        self.credentials = credentials
        guard let user = Self.name(of: credentials.uid) else {
            throw ServiceRefusal.forbidden("uid \(credentials.uid) has no user name on this system")
        }
        self.user = user
        let listed = Self.groupIDs(of: user, primary: credentials.gid)
        // Files are opened with the primary group alone when the database cannot say more;
        // rights come from listed groups only, never from a lookup that failed.
        groupIDs = listed ?? [credentials.gid]
        let groups = listed.map(Self.names) ?? []
        isAdmin = credentials.uid == 0 || groups.contains(configuration.adminGroup)
        isKiosk = groups.contains(configuration.kioskGroup)
    }

    private static func name(of uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return nil
        }
        return String(cString: name)
    }

    /// The ids of the user's groups in the group database (primary included); nil when the
    /// database cannot say.
    private static func groupIDs(of user: String, primary: UInt32) -> [gid_t]? {
        var count: Int32 = 64
        var ids = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(user, primary, &ids, &count) < 0 {
            ids = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(user, primary, &ids, &count) >= 0 else { return nil }
        }
        return Array(ids.prefix(Int(count)))
    }

    /// The names of groups by id.
    private static func names(of ids: [gid_t]) -> Set<String> {
        var names: Set<String> = []
        for id in ids {
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
