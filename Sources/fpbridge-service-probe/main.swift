import FPServiceClient
import FoundationEssentials
import Glibc

// Asks a running fpbridged for the caller's status, as `fpbridge status --json` would through
// the service, with nothing but the service's client: a health check for scripts and monitors
// that must not need libfprint, and the program scripts/client-links-check.sh inspects.

let usage = """
    usage: fpbridge-service-probe [SOCKET]

    Asks the fpbridge service (fpbridged) listening on SOCKET (default \(LocalAPI.systemSocket))
    for the calling user's status: lockouts, passcode, enrollment state and the reader.
    Prints the service's JSON answer on one line and exits 0; prints why not on standard
    error and exits 1 when the service cannot be reached, refuses, or answers with
    something that is not a status.

    options:
      -h, --help  show this help
    """

/// Says why on standard error (unbuffered, so it is out before the exit) and exits 1.
func fail(_ message: String) -> Never {
    var text = "fpbridge-service-probe: \(message)\n"
    // write(2) rather than stdio's stderr, a C global that Swift 6 cannot prove safe to share.
    _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(0)
}
if let option = arguments.first(where: { $0.hasPrefix("-") }) { fail("unknown option '\(option)'\n\n\(usage)") }
guard arguments.count <= 1 else { fail("one socket at most, got \(arguments.count) arguments\n\n\(usage)") }
let socket = arguments.first ?? LocalAPI.systemSocket

do {
    let answer: JSONValue = try await ServiceClient(socketPath: socket).get("status")
    // The answer is printed as the service sent it, but only once it reads as a status: a
    // socket that answers something else is not a working fpbridged.
    do { _ = try answer.decode(as: StatusReport.self) } catch {
        fail("the service at \(socket) answered, but not with a status: \(error)")
    }
    print(answer.rendered)
} catch let error as AuthError {
    fail("\(error.message) (\(error.code.name))")
} catch {
    fail("\(error)")
}
