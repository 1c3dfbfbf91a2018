import FingerprintLogin
import Foundation

// Looks up a login key in a running fpbridged through FingerprintLogin's ServiceKeyring, as an app
// that logs in through the service would: the program scripts/client-links-check.sh inspects to
// prove that the login client links neither libfprint nor GLib.

let usage = """
    usage: fingerprint-login-probe LABEL [SOCKET]

    Asks the fpbridge service (fpbridged) listening on SOCKET (default its system socket) for
    the calling user's login key LABEL. Prints its public key (PEM) and exits 0; prints why not
    on standard error and exits 1 when there is no such key or the service cannot be reached.
    """

/// Says why on standard error and exits 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fingerprint-login-probe: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(0)
}
guard (1...2).contains(arguments.count), let label = arguments.first, !label.hasPrefix("-") else { fail("\n\(usage)") }
let keyring = arguments.count == 2 ? ServiceKeyring(socket: arguments[1]) : ServiceKeyring()
do {
    guard let key = try await keyring.key(label: label) else { fail("the service has no key '\(label)' for this user") }
    print(key.publicKeyPEM, terminator: key.publicKeyPEM.hasSuffix("\n") ? "" : "\n")
} catch {
    fail("\(error)")
}
