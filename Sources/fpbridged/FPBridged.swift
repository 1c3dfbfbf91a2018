import ArgumentParser
import FPLocalAPIEngine
import FPService
import FPStore
import Foundation
import Logging

/// The `fpbridged` command: parses options, checks the mode, runs the service.
struct FPBridged: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fpbridged",
        abstract: "The fpbridge service: owns the readers and the state, and serves the local API on a Unix socket.",
        discussion: """
        Every request is authorised from the socket's peer credentials: a caller acts for its own user; \
        root and members of the admin group for any user; members of the kiosk group may identify and \
        evaluate for the user identified. The fake reader and client-chosen state directories are refused \
        unless --test-mode is given.

        EXIT STATUS
          0  stopped by SIGTERM or SIGINT
          2  usage (bad option, test settings without --test-mode)
          3  cannot start (socket in use, state directory unusable, --tpm unreachable)
        """,
        version: "0.1.0")

    @Option(help: "The socket to listen on.")
    var socket = LocalAPI.systemSocket

    @Option(help: "Where prints, counters, passcode hashes and keys live (created 0700 if missing).")
    var stateDir = "/var/lib/fpbridge"

    @Option(help: "The reader used when a request names none: auto, libfprint, libfprint:DRIVER (fake and fake:SCRIPT with --test-mode only).")
    var reader = "auto"

    @Option(help: "Members act for any user (enroll for others, status of all).")
    var adminGroup = "fpbridge-admin"

    @Option(help: "Members may identify and evaluate for the user identified.")
    var kioskGroup = "fpbridge-kiosk"

    @Option(help: "Seconds a reader stays open after an operation, so that the next one starts warm (0 to 3600).")
    var readerIdleSeconds = 5.0

    @Option(help: "Open connections one user may hold at once (root is not limited).")
    var connectionsPerUser = 32

    @Option(help: "Seconds a D-Bus Claim with no operation running keeps the reader from another user's Claim (1 to 3600; fprintd: until Release).")
    var claimYieldSeconds = 30.0

    @Option(help: ArgumentHelp(
        "Serve fprintd's D-Bus API (net.reactivated.Fprint) on the system bus: on or off (default: on, off with --test-mode).",
        discussion: "Desktop clients (GNOME Settings, pam_fprintd, the fprintd-* tools) then use fpbridge's engine and lockout. "
            + "fprintd must not hold the name: the fpbridged package sees to it; after make install, mask it "
            + "(systemctl mask --now fprintd)."))
    var dbus: String?

    @Option(help: ArgumentHelp(
        "Present a FIDO2 security key (passkeys) through /dev/uhid for the person at seat0: on or off.",
        discussion: "Browsers and libfido2 then see a USB security key whose user verification is a finger match "
            + "through fpbridge's engine and lockout; its PIN is the user's fpbridge passcode. It exists only while a local "
            + "user session is shown at seat0 and that user has no other session (docs/passkeys.md); it needs the uhid module "
            + "(modprobe uhid)."))
    var passkeys = "off"

    @Option(help: ArgumentHelp(
        "Keep the device identity key in the TPM 2.0 reached through this TCTI (device:/dev/tpmrm0, swtpm:host=127.0.0.1,port=2321).",
        discussion: "The key is made in the TPM on first use and never leaves it; attestations then name the TPM "
            + "(its endorsement certificate). Without this option the identity key is a software key in the state directory."))
    var tpm: String?

    @Option(help: ArgumentHelp(
        "The boot id of the system the service runs in (fpbridged.service: systemd's %b), for iOS's rule after a boot.",
        discussion: "Without it the kernel's is read from /proc; in a container the sandbox's own /proc shows the host's, "
            + "which the container's reboot never changes. 32 hex digits, or the kernel's dashed form."))
    var bootID: String?

    @Flag(help: "Allow the fake reader and state directories chosen by clients (tests only; status says so).")
    var testMode = false

    @Flag(name: .shortAndLong, help: "Log each request on stderr.")
    var verbose = false

    func run() async throws {
        var logger = Logger(label: "fpbridged")
        logger.logLevel = verbose ? .debug : .warning
        // First: a stop sent from now on is graceful, however long the start takes (issue 53).
        let stopSignals = await StopSignals.trap()
        logger.debug("SIGTERM and SIGINT trapped: a stop from now on is graceful")
        let environment = ProcessInfo.processInfo.environment
        if !testMode, let name = ["FPBRIDGE_READER", "FPBRIDGE_STATE_DIR"].first(where: { environment[$0] != nil }) {
            throw ValidationError("\(name) is set: test settings are refused unless --test-mode is given")
        }
        let selection: ReaderSelection
        do { selection = try ReaderSelection(parsing: reader) } catch { throw ValidationError("--reader: \(error)") }
        if case .fake = selection, !testMode {
            throw ValidationError("the fake reader is refused unless --test-mode is given")
        }
        guard stateDir.hasPrefix("/") else { throw ValidationError("--state-dir must be an absolute path") }
        if let bootID, !LockoutClock.useServiceBootID(bootID) {
            throw ValidationError("--boot-id '\(bootID.prefix(40))' is not a boot id (32 hex digits, as systemd's %b gives)")
        }
        guard (0...3600).contains(readerIdleSeconds) else { throw ValidationError("--reader-idle-seconds must be 0 to 3600") }
        guard (1...10_000).contains(connectionsPerUser) else { throw ValidationError("--connections-per-user must be 1 to 10000") }
        guard (1...3600).contains(claimYieldSeconds) else { throw ValidationError("--claim-yield-seconds must be 1 to 3600") }
        var configuration = ServiceConfiguration(
            socketPath: socket, stateDirectory: try Self.stateDirectory(stateDir), reader: selection,
            adminGroup: adminGroup, kioskGroup: kioskGroup, testMode: testMode)
        configuration.connectionsPerUser = connectionsPerUser
        configuration.readerIdleSeconds = readerIdleSeconds
        configuration.claimYieldSeconds = claimYieldSeconds
        if let tpm {
            guard (1...256).contains(tpm.utf8.count), !tpm.contains("\0") else { throw ValidationError("--tpm must be a TCTI such as device:/dev/tpmrm0") }
            if let problem = TPMDeviceIdentity.problem(tcti: tpm) {
                FileHandle.standardError.write(Data("fpbridged: --tpm \(tpm): \(problem)\n".utf8))
                throw ExitCode(3)
            }
            configuration.tpm = tpm
        }
        switch dbus ?? (testMode ? "off" : "on") {
        case "on": configuration.fprintdBus = true
        case "off": configuration.fprintdBus = false
        case let other: throw ValidationError("--dbus must be on or off, not '\(other)'")
        }
        switch passkeys {
        case "on": configuration.passkeys = true
        case "off": configuration.passkeys = false
        case let other: throw ValidationError("--passkeys must be on or off, not '\(other)'")
        }
        let service = FPBridgeService(configuration: configuration)
        let mode = testMode ? "test mode: fake reader and client state directories allowed" : "system mode"
        let socket = self.socket
        do {
            try await service.run(logger: logger, stopSignals: stopSignals) {
                FileHandle.standardError.write(Data("fpbridged: listening on \(socket) (\(mode))\n".utf8))
            }
        } catch let error as ServiceStartError {
            FileHandle.standardError.write(Data("fpbridged: \(error)\n".utf8))
            throw ExitCode(3)
        }
    }

    /// The state directory, created 0700 when missing (systemd's StateDirectory= does it in production).
    private static func stateDirectory(_ path: String) throws -> StateDirectory {
        if !FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                FileHandle.standardError.write(Data("fpbridged: cannot create the state directory \(path): \(error)\n".utf8))
                throw ExitCode(3)
            }
        }
        return StateDirectory(path: path)
    }
}
