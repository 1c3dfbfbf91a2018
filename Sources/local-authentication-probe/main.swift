import LocalAuthentication

// Asks whether Touch ID can be used, as an app does before it offers a fingerprint login, with
// Apple's API alone: the program scripts/client-links-check.sh inspects to prove that
// LocalAuthentication links neither libfprint nor GLib. Without an in-process engine the answer
// comes from fpbridged (FPBRIDGE_SERVICE, else the system service).

if CommandLine.arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
    print("""
        usage: local-authentication-probe

        Prints whether this user can log in with a finger now (LAContext.canEvaluatePolicy with
        deviceOwnerAuthenticationWithBiometrics, through fpbridged) and exits 0 when so; prints the
        LAError and exits 1 otherwise.
        """)
    exit(0)
}
let context = LAContext()
var error: NSError?
if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
    print("Touch ID can be used")
} else {
    FileHandle.standardError.write(Data("local-authentication-probe: \(error?.localizedDescription ?? "unavailable") (\(error?.code ?? 0))\n".utf8))
    exit(1)
}
