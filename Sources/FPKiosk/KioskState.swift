/// What the kiosk page shows, as the page's `<body data-state>` names it (the contract in
/// docs/kiosk.md and the browser tests rely on these spellings).
package enum KioskState: String, Codable, Sendable, CaseIterable {
    /// Before the first answer from fpbridged.
    case starting
    /// The reader is armed: "Touch the reader".
    case ready
    /// A finger is down and matching runs: "Reading…".
    case reading
    /// Identified (or a PIN accepted): "Welcome, NAME".
    case welcome
    /// No match: "Not recognised, try again (N left)".
    case notRecognised
    /// Identification is locked out for everyone at this kiosk: a countdown, the PIN pad meanwhile.
    case lockedOut
    /// The reader cools down before its next burst: "Reader resting, use your PIN".
    case resting
    /// An administrator enrolls a finger at this reader (`fpbridge enroll --at-kiosk`):
    /// identification waits, and the page shows the scans done.
    case enrolling
    /// The person names themselves first (a badge number, or the user id without `--badges`)
    /// and presses "Use finger"; only their prints are compared with the touch. Past the
    /// service's `identificationOpenGalleryLimit` prints, or always with `--badge-first`.
    case badgeFirst
    /// No reader, the reader pulled out, fpbridged restarting (`serviceRestarting`) or not answering.
    case unavailable
}

/// One message to the page: the state, a message key the page translates (English and Chinese
/// strings live in the page's script) with its parameters, the seconds left of a countdown,
/// the user once someone is welcomed, and the number of the reader's last result. Sent as JSON
/// on `GET /events` (its schema: `KioskSnapshot` in api/fpbridge-kiosk.openapi.yaml).
package struct KioskSnapshot: Codable, Sendable, Equatable {
    /// What the page shows (`body[data-state]`).
    package var state: KioskState
    /// A key of the page's string table (`touchReader`, `notRecognised`, `serviceDown`…).
    package var message: String
    /// Values the message names: `user`, `left`, `detail` (plain words from fpbridged).
    package var parameters: [String: String]
    /// Seconds left (lockout, resting), counted down by the page; nil when nothing counts down.
    package var countdown: Double?
    /// Who was welcomed.
    package var user: String?
    /// Their session at the login server (`--server`), for the page's app: `#session[data-session]`.
    /// Sent once, to the pages watching at the welcome; never kept by the board (``KioskBoard/show(_:)``).
    package var session: String?
    /// How many results the reader has had since the kiosk started (a welcome, a refusal, a
    /// lockout: ``KioskBoard/showResult(_:)``): one more with each, even one that reads exactly
    /// as the one before (the same stranger twice), and the same in every snapshot until the
    /// next, the kiosk's repeat of its state every 10 s included. The page tells the next
    /// person's result by it, not by comparing what the snapshots say. Set by the board.
    package var result: Int = 0

    /// A snapshot to show; ``result`` is the board's to set.
    package init(_ state: KioskState, message: String, parameters: [String: String] = [:],
                 countdown: Double? = nil, user: String? = nil, session: String? = nil) {
        self.state = state
        self.message = message
        self.parameters = parameters
        self.countdown = countdown
        self.user = user
        self.session = session
    }
}
