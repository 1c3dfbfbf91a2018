import Foundation
import Testing
import TestSupport

/// Issue 51: pam_faillock's manual page puts `auth sufficient pam_faillock.so authsucc` after the
/// password module; on Debian's stack that ends the stack before `pam_fpbridge.so
/// password-proved`, and a correct password silently stopped lifting the lockout (seen on a
/// booted Debian 12). `fpbridge doctor` reads the stack and says so, naming the line.
@Suite struct DoctorPamStackTests {
    /// What pam-auth-update writes with both profiles on (docs/packaging.md).
    static let debian = """
        # /etc/pam.d/common-auth
        auth	[success=2 default=ignore]	pam_fpbridge.so
        auth	[success=1 default=ignore]	pam_unix.so nullok try_first_pass
        auth	requisite			pam_deny.so
        auth	required			pam_permit.so
        auth	optional			pam_fpbridge.so password-proved
        """

    func doctor(_ stack: String, checking name: String = "common-auth", beside: [String: String] = [:]) async throws
        -> (status: Int32, pam: [[String: Any]], facts: [String: Any]) {
        let directory = TemporaryDirectory()
        try Data(stack.utf8).write(to: URL(fileURLWithPath: directory.file(name)))
        for (other, text) in beside { try Data(text.utf8).write(to: URL(fileURLWithPath: directory.file(other))) }
        let result = try await Fpbridge.run(["--json", "doctor", "--pam-stack", directory.file(name)])
        let findings = result.json["findings"] as? [[String: Any]] ?? (result.json["error"] as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        return (result.status, findings.filter { $0["topic"] as? String == "pam" }, result.json["pamStack"] as? [String: Any] ?? [:])
    }

    @Test func debiansStackReachesTheRecovery() async throws {
        let (_, pam, facts) = try await doctor(Self.debian)
        #expect(pam.count == 1 && pam.first?["level"] as? String == "ok" && (pam.first?["message"] as? String)?.contains("line 6") == true, "\(pam)")
        #expect(facts["passwordLiftsLockout"] as? Bool == true, "\(facts)")
    }

    @Test func faillocksSufficientLineBeforeTheRecoveryIsAProblemNamingTheLine() async throws {
        var lines = Self.debian.split(separator: "\n").map(String.init)
        lines.insert("auth\tsufficient\t\t\tpam_faillock.so authsucc", at: 4)
        let (status, pam, facts) = try await doctor(lines.joined(separator: "\n"))
        #expect(status == 3, "a problem found: exit status 3")
        let message = pam.first?["message"] as? String ?? ""
        #expect(pam.first?["level"] as? String == "problem" && message.contains("line 5 'auth\tsufficient\t\t\tpam_faillock.so authsucc'")
                && message.contains("no longer lifts fpbridge's lockout"), "\(pam)")
        #expect((pam.first?["fix"] as? String)?.contains("'optional' in place of 'sufficient'") == true, "\(pam)")
        #expect(facts["passwordLiftsLockout"] as? Bool == false && facts["skippingLines"] as? [Int] == [5], "\(facts)")

        // The fix the finding names: optional goes on to the recovery.
        lines[4] = "auth\toptional\tpam_faillock.so authsucc"
        let fixed = try await doctor(lines.joined(separator: "\n"))
        #expect(fixed.pam.first?["level"] as? String == "ok", "\(fixed.pam)")
    }

    @Test func aJumpPastTheRecoveryAndSuccessDoneAreProblemsToo() async throws {
        // The password's jump miscounted by hand: two lines too far lands after the recovery.
        let jump = Self.debian.replacingOccurrences(of: "[success=1 default=ignore]\tpam_unix.so", with: "[success=3 default=ignore]\tpam_unix.so")
        let jumped = try await doctor(jump)
        #expect(jumped.status == 3 && jumped.facts["skippingLines"] as? [Int] == [3], "\(jumped.facts)")
        let done = Self.debian.replacingOccurrences(of: "auth\trequired\t\t\tpam_permit.so", with: "auth\t[success=done default=ignore]\tpam_permit.so")
        let ended = try await doctor(done)
        #expect(ended.status == 3 && ended.facts["skippingLines"] as? [Int] == [5], "\(ended.facts)")
        // A bracket without success= takes its default=, as PAM does; keywords in any case.
        let byDefault = Self.debian.replacingOccurrences(of: "auth\trequired\t\t\tpam_permit.so", with: "auth\t[DEFAULT=done]\tpam_permit.so")
        #expect(try await doctor(byDefault).facts["skippingLines"] as? [Int] == [5])
    }

    @Test func aFingersLineMaySkipTheRecoveryAndPamExecsHookIsOneToo() async throws {
        // A finger is no password: its success jumping past the recovery is right.
        let finger = Self.debian.replacingOccurrences(of: "[success=2 default=ignore]\tpam_fpbridge.so", with: "sufficient\tpam_fprintd.so")
        #expect(try await doctor(finger).pam.first?["level"] as? String == "ok")
        // docs/desktop.md's stack without the package: pam_exec runs fpbridge pam-password-proved.
        let exec = """
            auth [success=3 default=ignore] pam_fprintd.so max-tries=1 timeout=10
            auth [success=1 default=ignore] pam_unix.so nullok try_first_pass
            auth requisite pam_deny.so
            auth optional pam_exec.so seteuid quiet /usr/bin/fpbridge pam-password-proved
            auth sufficient pam_faillock.so authsucc
            auth required pam_permit.so
            """
        #expect(try await doctor(exec).pam.first?["level"] as? String == "ok", "faillock after the hook is fine")
        let early = exec.replacingOccurrences(of: "auth sufficient pam_faillock.so authsucc\n", with: "")
            .replacingOccurrences(of: "auth requisite pam_deny.so\n", with: "auth requisite pam_deny.so\nauth sufficient pam_faillock.so authsucc\n")
        let found = try await doctor(early)
        #expect(found.status == 3 && found.facts["skippingLines"] as? [Int] == [4], "\(found.facts)")
    }

    @Test func aServiceFileIsReadThroughItsIncludes() async throws {
        var lines = Self.debian.split(separator: "\n").map(String.init)
        lines.insert("auth\tsufficient\tpam_faillock.so authsucc", at: 4)
        let sudo = "#%PAM-1.0\nsession required pam_limits.so\n@include common-auth\n@include common-account\n"
        let (status, pam, _) = try await doctor(sudo, checking: "sudo", beside: ["common-auth": lines.joined(separator: "\n")])
        let message = pam.first?["message"] as? String ?? ""
        #expect(status == 3 && message.contains("/common-auth line 5 'auth\tsufficient\tpam_faillock.so authsucc'"), "\(pam)")
    }

    @Test func aFingerWithoutTheRecoveryIsANoteAndAStackWithoutEitherSaysNothing() async throws {
        let noRecovery = try await doctor(Self.debian.split(separator: "\n").dropLast().joined(separator: "\n"))
        #expect(noRecovery.pam.first?["level"] as? String == "note"
                && (noRecovery.pam.first?["fix"] as? String) == "sudo pam-auth-update --enable fpbridge-password", "\(noRecovery.pam)")
        let plain = try await doctor("auth [success=1 default=ignore] pam_unix.so nullok\nauth requisite pam_deny.so\nauth required pam_permit.so\n")
        #expect(plain.pam.isEmpty, "\(plain.pam)")
    }
}
