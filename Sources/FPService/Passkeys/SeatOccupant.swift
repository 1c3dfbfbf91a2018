internal import CSeatPresence

/// Who sits at a seat, as logind's records say (presence.c's `seat_user`, the rule
/// pam_fpbridge.so's presence shares): the user of the seat's active session when it is a
/// local user session and that user has no session anywhere else. A passkey device cannot see
/// who wrote to it (a hidraw node names no process), so it acts for this user or for nobody.
struct SeatOccupant: Equatable, Sendable {
    /// The user's uid.
    let uid: UInt32
    /// logind's ID of the session shown at the seat: a new login is a new occupant.
    let session: String

    /// The occupant of `seat`, or why there is none (no logind, a greeter or lock screen shown,
    /// a remote or seatless session of the user, a record that cannot be read).
    static func of(seat: String) -> Result<SeatOccupant, SeatVacancy> {
        var uid: uid_t = 0
        var session = [CChar](repeating: 0, count: 64)
        var why = [CChar](repeating: 0, count: 256)
        let found = seat.withCString { name in
            var options = presence_options(seat: name, allow_remote_session: 0)
            return seat_user(&options, &uid, &session, session.count, &why, why.count)
        }
        guard found == 1 else { return .failure(SeatVacancy(reason: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))) }
        return .success(SeatOccupant(uid: uid, session: String(decoding: session.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
}

/// Why nobody is at the seat for the passkey device to act for.
struct SeatVacancy: Error, Equatable, Sendable {
    let reason: String
}
