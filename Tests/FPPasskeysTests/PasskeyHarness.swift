@testable import FPPasskeys
import FPAuthentication
import FPCore
import FPReaders
import FPStore
import Foundation
import TestSupport

/// A state directory with fast scrypt settings and alice enrolled (finger id `alice-1`, passcode
/// 2468), and authenticators over fake readers that play a script of touches.
struct PasskeyHarness: Sendable {
    let directory = TemporaryDirectory()
    let configuration: AuthConfiguration = {
        var configuration = AuthConfiguration()
        configuration.passcodeHashRounds = 1024
        configuration.scanTimeoutSeconds = 5
        return configuration
    }()

    var state: StateDirectory { StateDirectory(path: directory.file("state")) }

    func context(_ script: String, user: String = "alice") async throws -> AuthenticationContext {
        let reader = FakeReader(script: try FakeScript.parse(script))
        try await reader.open()
        return AuthenticationContext(environment: AuthEnvironment(user: user, reader: reader, stateDirectory: state,
                                                                  configuration: configuration))
    }

    /// Sets alice's passcode and enrolls her right index finger.
    func enrollAlice() async throws {
        try await PasscodeManager(context: try await context("")).set(Passcode("2468"))
        let context = try await context(String(repeating: "scan alice-1\n", count: 5))
        for try await _ in Enrollment(context: context).enroll(.rightIndex, replace: false, prompt: ListedPasscodes([Passcode("2468")])) {}
    }

    /// alice's authenticator, on a reader that plays `script`, with a device state of its own
    /// (a power-up) or `device`.
    func authenticator(_ script: String, device: CTAP2DeviceState = CTAP2DeviceState()) async throws -> CTAP2Authenticator {
        CTAP2Authenticator(passkeys: try await context(script).passkeys(protection: .development), device: device)
    }

    /// Whether a match anywhere else (`verifyFinger`, as `sudo` asks) is refused as locked.
    func fingerLockedElsewhere() async throws -> Bool {
        let context = try await context("scan alice-1")
        do {
            _ = try await context.verifyFinger(reason: "sudo", options: BiometricOptions())
            return false
        } catch {
            return error.code == .biometryLockout
        }
    }
}
