import Foundation
import LocalAuthentication

/// The source documents' code as an iOS app writes it in Swift, with Apple's
/// names only: nothing in this file is specific to Linux.
enum SeedApp {
    /// What the app shows after a login attempt.
    enum Outcome: Equatable, Sendable {
        case loggedIn
        case showPasswordLogin
        case tryAgain
        case cancelled
        case unavailable(String)
        case lockedOut
        case other(Int)
    }

    /// Seed 000/002: check first, then read the biometry type, then evaluate and switch over the error.
    static func fingerprintLogin(fallbackTitle: String? = nil) async -> (outcome: Outcome, prompt: String?) {
        let context = LAContext()
        context.localizedFallbackTitle = fallbackTitle
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
            switch error?.code {
            case LAError.biometryNotAvailable.rawValue: return (.unavailable("no Touch ID"), nil)
            case LAError.biometryNotEnrolled.rawValue: return (.unavailable("no finger enrolled"), nil)
            case LAError.passcodeNotSet.rawValue: return (.unavailable("no passcode"), nil)
            case LAError.biometryLockout.rawValue: return (.lockedOut, nil)
            default: return (.other(error?.code ?? 0), nil)
            }
        }
        let prompt: String
        switch context.biometryType {
        case .touchID: prompt = "Log in with Touch ID"
        case .faceID: prompt = "Log in with Face ID"
        case .opticID: prompt = "Log in with Optic ID"
        case .none: prompt = "Log in"
        @unknown default: prompt = "Log in"
        }
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: prompt)
            return (.loggedIn, prompt)
        } catch let error as LAError {
            switch error.code {
            case .authenticationFailed: return (.tryAgain, prompt)
            case .userFallback: return (.showPasswordLogin, prompt)
            case .userCancel, .systemCancel, .appCancel: return (.cancelled, prompt)
            case .biometryLockout: return (.lockedOut, prompt)
            default: return (.other(error.errorCode), prompt)
            }
        } catch {
            return (.other((error as NSError).code), prompt)
        }
    }

    /// Seed 003: when Touch ID is locked, the device passcode unlocks it, then the finger is asked again.
    static func loginWithRecovery(reason: String = "Verify your fingerprint") async throws -> Bool {
        let context = LAContext()
        var error: NSError?
        if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
            return try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
        }
        guard let error, LAError.Code(rawValue: error.code) == .biometryLockout else {
            throw error ?? LAError(.invalidContext)
        }
        let unlock = LAContext()
        guard try await unlock.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Enter your passcode to unlock Touch ID") else {
            return false
        }
        return try await loginWithRecovery(reason: reason)
    }

    /// The completion-handler form, as seed code written before async/await does it.
    static func loginWithReply() async -> (Bool, Int?) {
        await withCheckedContinuation { continuation in
            let context = LAContext()
            context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in") { success, error in
                continuation.resume(returning: (success, error.map { ($0 as NSError).code }))
            }
        }
    }
}
