import LocalAuthentication

let context = LAContext()
var error: NSError?
guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
    fatalError("Touch ID unavailable: \(error?.localizedDescription ?? "")")
}
let success = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
print(success ? "Logged in" : "Not logged in")
