import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// Presence (issue 49): `pam_fpbridge.so` offers the finger only when logind's records and the
/// process's own cgroup show that PAM_USER herself asks at the reader's seat. The real module
/// in a real PAM stack (PamTouchOrTypeTests.Stack) with the real fpbridged; what is chosen is
/// only what the module reads: /run/systemd's records, mounted in a namespace of the host's
/// own, and the host's cgroup (Tests/Helpers/at-seat.py). Root only, as CI runs.
///
/// Each case is one reproduction of the issue, or one local case that must keep the finger.
/// "Offered" is seen as the module's own prompt (`Password or finger: `), which it puts up only
/// after fpbridged said the reader waits; "refused" as the password module's prompt alone.
@Suite(.serialized) struct PamPresenceTests {
    static let launcher = ["/usr/bin/python3", PamModule.packageRoot + "/Tests/Helpers/at-seat.py"]

    /// logind's records as /run/systemd lays them out: a seat's active session, each session's
    /// record and each user's list of sessions.
    struct Records {
        let directory = TemporaryDirectory()

        struct Session {
            var id: String
            var uid: Int
            var seat = "seat0"
            var remote = false
            var state = "active"
            var `class` = "user"
        }

        init(seats: [String: String?], sessions: [Session]) throws {
            let fm = FileManager.default
            for folder in ["seats", "sessions", "users"] {
                try fm.createDirectory(atPath: directory.file(folder), withIntermediateDirectories: true)
            }
            for (seat, active) in seats {
                try "ACTIVE=\(active ?? "")\nIS_SEAT0=\(seat == "seat0" ? 1 : 0)\n"
                    .write(toFile: directory.file("seats/\(seat)"), atomically: true, encoding: .utf8)
            }
            for session in sessions {
                let text = "UID=\(session.uid)\nUSER=u\(session.uid)\nACTIVE=\(session.state == "active" ? 1 : 0)\n"
                    + "STATE=\(session.state)\nREMOTE=\(session.remote ? 1 : 0)\nCLASS=\(session.class)\n"
                    + "SEAT=\(session.seat)\nTTY=\(session.remote ? "pts/0" : "")\n"
                try text.write(toFile: directory.file("sessions/\(session.id)"), atomically: true, encoding: .utf8)
            }
            for uid in Set(sessions.map(\.uid)) {
                let ids = sessions.filter { $0.uid == uid }.map(\.id).joined(separator: " ")
                try "NAME=u\(uid)\nSTATE=active\nSESSIONS=\(ids)\n"
                    .write(toFile: directory.file("users/\(uid)"), atomically: true, encoding: .utf8)
            }
        }
    }

    /// Root at the desk: session c1 shown at seat0, local.
    static let desk = Records.Session(id: "c1", uid: 0)
    /// Root's SSH login beside it.
    static let ssh = Records.Session(id: "c2", uid: 0, seat: "", remote: true, state: "online")
    static let inDesk = "user.slice/user-0.slice/session-c1.scope"
    static let inManager = "user.slice/user-0.slice/user@0.service/app.slice/app-terminal-1.scope"

    struct Case {
        var name: String
        var seats: [String: String?] = ["seat0": "c1"]
        var sessions: [Records.Session] = [PamPresenceTests.desk]
        var cgroup = PamPresenceTests.inDesk
        var service = "su"
        var arguments = ""
        var tty: String? = nil
        var console: String? = nil
        /// One NAME=VALUE in PAM's environment (a display manager's XDG_SEAT).
        var pamEnvironment: String? = nil
        var offered: Bool
        /// What the module's syslog line says (refused cases): the rule that refused.
        var why: String? = nil
    }

    static let cases: [Case] = [
        // What must keep the finger.
        Case(name: "su in the desk's own session (a terminal or a tmux pane started and attached there)", offered: true),
        Case(name: "a terminal tab under root's user manager while root's session is the seat's", cgroup: inManager, offered: true),
        Case(name: "a login on the console the kernel shows (getty, no session yet)", seats: ["seat0": nil], sessions: [],
             cgroup: "system.slice/getty@tty3.service", service: "login", tty: "tty3", console: "tty3", offered: true),
        Case(name: "the login screen: a display manager's worker while the seat shows its greeter",
             seats: ["seat0": "c9"], sessions: [Records.Session(id: "c9", uid: 115, class: "greeter")],
             cgroup: "system.slice/gdm.service", service: "gdm-password", arguments: "prompt=conversation", offered: true),
        Case(name: "root's user manager's own session (systemd 256's class manager) is no login elsewhere",
             sessions: [desk, Records.Session(id: "c8", uid: 0, seat: "", state: "online", class: "manager")], offered: true),
        Case(name: "a reader on seat1 (seat=seat1) and root's session there",
             seats: ["seat0": "c5", "seat1": "c3"],
             sessions: [Records.Session(id: "c3", uid: 0, seat: "seat1"), Records.Session(id: "c5", uid: 1000)],
             cgroup: "user.slice/user-0.slice/session-c3.scope", arguments: "seat=seat1", offered: true),
        Case(name: "allow-remote-session: root's SSH login beside the desk is no reason", sessions: [desk, ssh],
             arguments: "allow-remote-session", offered: true),

        // The reproductions: the password alone.
        Case(name: "a tmux pane of the desk's session attached from SSH (root also logged in remotely)",
             sessions: [desk, ssh], offered: false,
             why: "is also logged in remotely (session c2)"),
        Case(name: "systemd-run --user from SSH (root's user manager, root logged in remotely)", sessions: [desk, ssh],
             cgroup: inManager, offered: false,
             why: "is also logged in remotely (session c2)"),
        Case(name: "an SSH login that ended but left a process behind (its session closing, still remote)",
             sessions: [desk, Records.Session(id: "c2", uid: 0, seat: "", remote: true, state: "closing")], cgroup: inManager,
             offered: false, why: "is also logged in remotely (session c2)"),
        Case(name: "a display manager's worker on a machine of two seats (which one it serves is not known)",
             seats: ["seat0": "c9", "seat1": "c3"],
             sessions: [Records.Session(id: "c9", uid: 115, class: "greeter"), Records.Session(id: "c3", uid: 1000, seat: "seat1")],
             cgroup: "system.slice/gdm.service", service: "gdm-password", arguments: "prompt=conversation", offered: false,
             why: "a display manager's request on a machine of several seats names no seat"),
        Case(name: "another user's su: the session at the seat is alice's, PAM_USER is root",
             sessions: [Records.Session(id: "c1", uid: 1000)], offered: false,
             why: "is another user's, not \"root\"'s"),
        Case(name: "another user's terminal tab: alice's manager asks for root",
             sessions: [Records.Session(id: "c1", uid: 1000)],
             cgroup: "user.slice/user-1000.slice/user@1000.service/app.slice/tab.scope", offered: false,
             why: "a user manager that is not that of \"root\" at the seat"),
        Case(name: "root's manager while alice's session is the seat's (root switched away)",
             sessions: [Records.Session(id: "c1", uid: 1000), Records.Session(id: "c4", uid: 0, state: "online")],
             cgroup: inManager, offered: false,
             why: "a user manager that is not that of \"root\" at the seat"),
        Case(name: "a daemon in no session (a system service using common-auth)", cgroup: "system.slice/some-daemon.service",
             service: "some-daemon", arguments: "prompt=conversation", offered: false,
             why: "the request is in no session"),
        Case(name: "a display manager's worker for root while alice's session is shown (not the greeter, not root's)",
             sessions: [Records.Session(id: "c1", uid: 1000)], cgroup: "system.slice/gdm.service", service: "gdm-password",
             arguments: "prompt=conversation", offered: false,
             why: "the request is in no session"),
        Case(name: "a session that is not the one shown at the seat (root's other local session in the background)",
             sessions: [desk, Records.Session(id: "c7", uid: 0, state: "online")],
             cgroup: "user.slice/user-0.slice/session-c7.scope", offered: false,
             why: "not the one active at the seat (c1)"),
        Case(name: "root's second seat: a session on seat1 while the reader is seat0's",
             seats: ["seat0": "c1", "seat1": "c3"],
             sessions: [desk, Records.Session(id: "c3", uid: 0, seat: "seat1")],
             cgroup: "user.slice/user-0.slice/session-c3.scope", offered: false,
             why: "not the one active at the seat (c1)"),
        Case(name: "a remote session shown at the seat (its record says REMOTE=1)",
             sessions: [Records.Session(id: "c1", uid: 0, remote: true)], offered: false,
             why: "is not a local one there"),
        Case(name: "no session active at the seat and PAM_TTY a console that is not shown",
             seats: ["seat0": nil], sessions: [], cgroup: "system.slice/getty@tty4.service", service: "login", tty: "tty4",
             console: "tty3", offered: false,
             why: "no session is active at seat0"),
        Case(name: "no logind at all (no seat record)", seats: [:], sessions: [], offered: false,
             why: "logind has no seat seat0"),
        Case(name: "a unit the user named session-c1.scope in her own manager", cgroup:
             "user.slice/user-1000.slice/user@1000.service/app.slice/session-c1.scope",
             offered: false,
             why: "a user manager that is not that of \"root\" at the seat"),
    ]

    @Test func theFingerIsOfferedOnlyWhenRootHimselfAsksAtTheReadersSeat() async throws {
        try #require(getuid() == 0, "root only: a mount namespace and cgroups of the test's own")
        let bus = try await FprintdBus()
        let enrolled = try await bus.enroll(print: "p1", user: "root")
        try #require(enrolled.status == 0, "\(enrolled.stdout)")
        let module = try await PamModule.path()
        var wrong: [String] = []
        for item in Self.cases {
            let records = try Records(seats: item.seats, sessions: item.sessions)
            let stack = try PamTouchOrTypeTests.Stack(service: item.service, module: module, socket: bus.service!.socket,
                                                      arguments: item.arguments, passwordProved: false, seatless: false)
            let launcher = Self.launcher + [records.directory.path, item.cgroup] + (item.console.map { [$0] } ?? []) + ["--"]
            let (client, input) = try await stack.start(items: item.tty.map { ["tty": $0] } ?? [:], launcher: launcher,
                                                        environment: ["PAM_WRAPPER_DEBUGLEVEL": "4"]
                                                            .merging(item.pamEnvironment.map { ["PAM_HOST_PAM_ENV": $0] } ?? [:]) { $1 })
            defer { try? input.fileHandleForWriting.close() }
            // Either prompt: the module's own (the finger offered) or the password module's alone.
            let prompted = try await client.waitFor(count: 1, timeout: 20) {
                $0.components(separatedBy: PamTouchOrTypeTests.ownPrompt).count - 1
                    + $0.components(separatedBy: "\n" + PamTouchOrTypeTests.passwordPrompt).count - 1
                    + ($0.hasPrefix(PamTouchOrTypeTests.passwordPrompt) ? 1 : 0)
            }
            input.fileHandleForWriting.write(Data("secret\n".utf8))
            let status = try await client.finish(timeout: 20)
            let offered = client.output.contains(PamTouchOrTypeTests.ownPrompt)
            let told = item.why.map { client.output.contains("no finger for \"root\": no presence at ") && client.output.contains($0) } ?? true
            if !prompted || status != 0 || offered != item.offered || !told {
                wrong.append("\(item.name): expected \(item.offered ? "the finger offered" : "the password alone, saying '\(item.why ?? "")'"), "
                             + "got \(offered ? "the finger" : "no finger") (status \(status)): \(client.output)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n\n"))")
    }
}
