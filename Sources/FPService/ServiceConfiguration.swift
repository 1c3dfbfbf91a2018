import FPAuthentication
import FPLocalAPI

/// How `fpbridged` runs: where it listens and keeps state, who administers it, and
/// whether test paths (fake reader, client-chosen state) are allowed.
package struct ServiceConfiguration: Sendable {
    package var socketPath: String
    package var stateDirectory: StateDirectory
    /// The reader used when a request names none (production requests may name only libfprint ones).
    package var reader: ReaderSelection
    /// Members act for any user (enroll for others, repair, status of all). Root always may.
    package var adminGroup: String
    /// Members may identify and evaluate on behalf of the user identified.
    package var kioskGroup: String
    /// How long a reader stays open after an operation, for the next one to start warm.
    package var readerIdleSeconds: Double = 5
    /// Open connections one uid may hold at once (root is not limited).
    package var connectionsPerUser = 32
    /// Serves fprintd's D-Bus API (`net.reactivated.Fprint`) on the system bus beside the socket.
    package var fprintdBus = false
    /// Presents a FIDO2 security key through `/dev/uhid` for the person at seat0 (``PasskeyFace``).
    package var passkeys = false
    /// Seconds a D-Bus claim with no action running keeps the device from another user's Claim
    /// (``ClaimYield``; fprintd keeps it until Release). 30: longer than any pause between a
    /// client's own calls (pam_fprintd and the fprintd tools go from one to the next at once;
    /// GNOME Settings runs an enrollment between its stages), and as long as a scan waits for a
    /// finger (the state's default scan timeout, pam_fprintd's default timeout).
    package var claimYieldSeconds: Double = 30
    /// The TCTI of the TPM the device identity key lives in (`swtpm:host=127.0.0.1,port=2321`,
    /// `device:/dev/tpmrm0`); nil for the software key in `service/`.
    package var tpm: String?
    /// Allows the fake reader and `stateDirectory` in requests; said in every status.
    package var testMode: Bool

    package init(socketPath: String, stateDirectory: StateDirectory, reader: ReaderSelection,
                 adminGroup: String = "fpbridge-admin", kioskGroup: String = "fpbridge-kiosk", testMode: Bool = false) {
        self.socketPath = socketPath
        self.stateDirectory = stateDirectory
        self.reader = reader
        self.adminGroup = adminGroup
        self.kioskGroup = kioskGroup
        self.testMode = testMode
    }

    /// The mode name status reports.
    package var mode: String { testMode ? "service (test mode)" : "service" }
}
