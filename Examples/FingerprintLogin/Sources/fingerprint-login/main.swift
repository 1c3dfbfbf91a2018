import Foundation
import LocalAuthentication
import LocalAuthenticationInProcess

// Seed 002's fingerprint login, step 3: the app already has a password session and
// bound this device; at each launch it asks for the finger instead of the password.
// The enrolled fingers' state is remembered after each login: when it changes (a new
// finger was added), the app asks for the password again, as banking apps do.
//
//     fingerprint-login [STATE-FILE]
//
// Exit status: 0 logged in, 1 not logged in, 2 the password is needed.
//
// The one line iOS does not have: this app runs on the fake reader without fpbridged
// (scripts/example.sh), so it links the in-process engine and uses it when the settings choose
// no service; with fpbridged it still asks the service.
LAContext.fpbridgeDefaults.engine = .inProcess()

let stateFile = CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "fingerprint-login.state"

func finish(_ message: String, _ status: Int32) -> Never {
    print(message)
    exit(status)
}

func login() async throws -> Bool {
    let context = LAContext()
    context.localizedFallbackTitle = "Use Password"
    var error: NSError?
    guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
        switch LAError.Code(rawValue: error?.code ?? 0) {
        case .biometryLockout?:
            // Seed 003: the device passcode unlocks biometry, then the finger is asked again.
            print("Touch ID is locked: enter the device passcode to unlock it.")
            _ = try await LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock Touch ID")
            return try await login()
        case .biometryNotEnrolled?: finish("No finger is enrolled: log in with your password.", 2)
        case .passcodeNotSet?: finish("Set a device passcode to use Touch ID: log in with your password.", 2)
        default: finish("Touch ID is not available (\(error?.localizedDescription ?? "unknown")): log in with your password.", 2)
        }
    }
    let name = context.biometryType == .faceID ? "Face ID" : "Touch ID"
    let remembered = try? Data(contentsOf: URL(fileURLWithPath: stateFile))
    if let remembered, let current = context.evaluatedPolicyDomainState, remembered != current {
        finish("The enrolled fingers changed since the last login: log in with your password.", 2)
    }
    do {
        _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in with \(name)")
    } catch LAError.userFallback {
        finish("Log in with your password.", 2)
    } catch LAError.authenticationFailed {
        finish("The finger did not match.", 1)
    } catch LAError.userCancel {
        finish("Login cancelled.", 1)
    } catch LAError.biometryLockout {
        return try await login()
    }
    if let state = context.evaluatedPolicyDomainState {
        try state.write(to: URL(fileURLWithPath: stateFile), options: .atomic)
    }
    print("Logged in with \(name).")
    return true
}

do {
    exit(try await login() ? 0 : 1)
} catch {
    finish("Login failed: \(error.localizedDescription)", 1)
}
