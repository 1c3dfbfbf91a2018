import FPLocalAPI
import FPVocabulary

/// The heart of the kiosk: `identify` re-armed for as long as the kiosk runs, each scan planned
/// from the reader's heat (``ThermalPlan``) so that the reader is never stopped as too hot, and
/// every answer of fpbridged turned into what the page shows.
package struct IdentifyLoop: Sendable {
    package let backend: any KioskBackend
    package let board: KioskBoard
    package let clock: any KioskClock
    package let wake: WakeSignal
    package var plan = ThermalPlan()
    /// How long "Welcome, NAME" stays up before the next person's turn.
    package var welcomeSeconds: Double = 4
    /// How long "Not recognised" stays up before the reader is armed again.
    package var notRecognisedSeconds: Double = 2.5
    /// How often an absent reader or a silent service is asked again.
    package var pollSeconds: Double = 2
    /// How often the progress of an enrollment at the kiosk is read while it runs.
    package var enrollingPollSeconds: Double = 0.5
    /// What the loop decides and hears, for `--verbose` (never a PIN: the loop sees none).
    package var log: @Sendable (String) -> Void = { _ in }
    /// Whether fpbridged went away (restarting) or is simply not answering.
    package var absence = ServiceAbsence()
    /// A tap ended the last rest: the next turn may spend the margin on the person at the screen.
    private let tapped = TapMemory()
    /// Badge and finger: whether a touch needs a name first, and the name the pad handed over.
    package let desk: BadgeDesk
    /// How long a named touch waits for the finger: the person pressed "Use finger" a moment ago.
    package var claimedScanSeconds: Double = 15
    /// How long the page asks for a name before the loop looks again (a press of "Use finger"
    /// or a tap of the screen ends it sooner).
    package var badgeFirstSeconds: Double = 30

    package init(backend: any KioskBackend, board: KioskBoard, clock: any KioskClock, wake: WakeSignal,
                 desk: BadgeDesk = BadgeDesk()) {
        self.backend = backend
        self.board = board
        self.clock = clock
        self.wake = wake
        self.desk = desk
    }

    /// Runs until the task is cancelled.
    package func run() async {
        while !Task.isCancelled { await turn() }
    }

    /// One step: read the reader, then scan, rest or wait for a reader.
    package func turn() async {
        let woken = tapped.take()
        let report: ReaderReport.Reader
        do { report = try await backend.reader() } catch {
            await unreachable(error)
            return
        }
        absence.answered()
        if let enrolling = report.enrolling {
            // An administrator enrolls at this reader: nothing is armed until it ends.
            showEnrolling(enrolling)
            await pause(enrollingPollSeconds, wakeable: false)
            return
        }
        let step = plan.step(for: report, woken: woken)
        log("reader \(report.identity ?? "none"): \(report.scanSecondsLeft.map { "\($0) s of scanning left" } ?? "no thermal limit"); \(step)")
        switch step {
        case .absent:
            board.show(KioskSnapshot(.unavailable, message: "noReader"))
            await pause(pollSeconds, wakeable: false)
        case .rest(let seconds, let wakeable):
            // A tap of the screen arms a short scan when the heat allows one: the page asks for it.
            board.show(KioskSnapshot(.resting, message: wakeable ? "restingTap" : "resting", countdown: seconds))
            if await pause(seconds, wakeable: true) { tapped.remember() }
        case .scan(let timeout):
            guard desk.needed else { return await scan(timeout: timeout) }
            let now = clock.now
            if let claim = desk.take(at: now) {
                await scan(timeout: min(timeout, claimedScanSeconds), claim: claim)
            } else if desk.openTryDue(at: now) {
                // Asked again now and then: fpbridged may allow everyone again (prints removed).
                await scan(timeout: timeout)
            } else {
                board.show(KioskSnapshot(.badgeFirst, message: "badgeFirst"))
                await pause(badgeFirstSeconds, wakeable: true)
            }
        }
    }

    /// A touch compared with the named person's prints only (badge and finger).
    private func scan(timeout: Double, claim: BadgeDesk.Claim) async {
        guard case .user(let user) = claim else {
            // An unknown badge number: the same answer as a person with no print here, and no scan.
            log("badge and finger: a badge number the list does not hold")
            board.showResult(KioskSnapshot(.notRecognised, message: "badgeNoFinger"))
            await pause(notRecognisedSeconds, wakeable: false)
            return
        }
        log("badge and finger: a touch compared with \(user)'s prints only")
        await scan(timeout: timeout, claimedUser: user)
    }

    private func scan(timeout: Double, claimedUser: String? = nil) async {
        // Kept as it is while a person's finger is being read (the stream says so first).
        board.show(KioskSnapshot(.ready, message: "touchReader"))
        let seen = SeenEvents()
        let board = board
        do {
            let identified = try await backend.identify(timeoutSeconds: timeout, claimedUser: claimedUser) { event in
                switch event {
                case .fingerDetected: board.show(KioskSnapshot(.reading, message: "reading"))
                case .noMatch(_, let beforeLockout): seen.record(attemptsLeft: beforeLockout)
                case .matched(let user, _): seen.record(user: user)
                case .anotherTouch: board.show(KioskSnapshot(.ready, message: "touchAgain"))
                case .identificationScored(let confidence): seen.record(confidence: confidence)
                default: break
                }
            }
            if claimedUser == nil { desk.learned(false, at: clock.now) }
            let user = identified.user
            log("identified \(user)\(seen.confidence)\(identified.session == nil ? "" : ", signed in at the login server")")
            board.showResult(KioskSnapshot(.welcome, message: "welcome", parameters: ["user": user], user: user,
                                     session: identified.session))
            await pause(welcomeSeconds, wakeable: false)
        } catch is CancellationError {
            return
        } catch let error as AuthError where error.cause == .claimNeeded {
            // Too many prints here for an identification among everyone: names first.
            log("identify: \(error.code.name): \(error.message)")
            desk.learned(true, at: clock.now)
            board.show(KioskSnapshot(.badgeFirst, message: "badgeFirst"))
        } catch let error as AuthError where claimedUser != nil && [.biometryNotEnrolled, .invalidInput].contains(error.code) {
            // No usable print for that name (or no such name): the PIN is the way in.
            log("badge and finger: \(error.code.name): \(error.message)")
            board.showResult(KioskSnapshot(.notRecognised, message: "badgeNoFinger"))
            await pause(notRecognisedSeconds, wakeable: false)
        } catch let error as AuthError where [.notFound, .keyInvalidated].contains(error.code) {
            // Identified, but with no usable login key for the server: not a stranger, and no
            // attempt counted; the person binds this kiosk's server again, or uses the PIN.
            log("identify-and-prove: \(error.code.name): \(error.message)")
            board.showResult(KioskSnapshot(.notRecognised, message: "notBound", parameters: ["user": seen.user ?? ""]))
            await pause(welcomeSeconds, wakeable: false)
        } catch let error as AuthError {
            log("identify: \(error.code.name): \(error.message)\(seen.confidence)")
            // An identification among everyone ran: a touch alone is enough again.
            if claimedUser == nil, [.authenticationFailed, .timedOut].contains(error.code) { desk.learned(false, at: clock.now) }
            await failed(error, attemptsLeft: seen.attemptsLeft)
        } catch let error as LoginServerError {
            log("login server: \(error)")
            board.show(KioskSnapshot(.unavailable, message: "serverTrouble", parameters: ["detail": error.description]))
            await pause(pollSeconds * 2, wakeable: true)
        } catch {
            await unreachable(error)
        }
    }

    /// An enrollment at the kiosk in progress: the scans done once the reader said how many it needs.
    private func showEnrolling(_ enrolling: ReaderReport.Enrolling?) {
        if let enrolling, let stages = enrolling.stages {
            board.show(KioskSnapshot(.enrolling, message: "enrollingStage",
                                     parameters: ["stage": String(enrolling.stage), "stages": String(stages)]))
        } else {
            board.show(KioskSnapshot(.enrolling, message: "enrolling"))
        }
    }

    /// fpbridged did not answer: restarting (it went away a moment ago) or not answering.
    private func unreachable(_ error: any Error) async {
        let message = absence.unreachable(at: clock.now)
        board.show(KioskSnapshot(.unavailable, message: message, parameters: ["detail": Self.words(error)]))
        await pause(pollSeconds, wakeable: true)
    }

    /// What a failed scan means for the page, and how long before the next one.
    private func failed(_ error: AuthError, attemptsLeft: Int?) async {
        switch error.code {
        case .timedOut:
            // Nobody came: re-armed at once (after the heat is read again).
            return
        case .authenticationFailed:
            var parameters: [String: String] = [:]
            if let attemptsLeft { parameters["left"] = String(attemptsLeft) }
            board.showResult(KioskSnapshot(.notRecognised, message: attemptsLeft == nil ? "notRecognised" : "notRecognisedLeft",
                                     parameters: parameters))
            await pause(notRecognisedSeconds, wakeable: false)
        case .biometryLockout:
            if let seconds = error.retryAfter, seconds > 0 {
                board.showResult(KioskSnapshot(.lockedOut, message: "lockedOut", countdown: seconds))
                await pause(seconds, wakeable: false)
            } else {
                // Locked until an administrator lifts it: the PIN pad is the way in meanwhile.
                board.showResult(KioskSnapshot(.lockedOut, message: "lockedOutForGood"))
                await pause(30, wakeable: false)
            }
        case .readerTooHot:
            // The plan should never let it come to this; the service's figure rules when it does.
            let seconds = max(1, error.retryAfter ?? 60)
            board.show(KioskSnapshot(.resting, message: "resting", countdown: seconds))
            await pause(seconds, wakeable: false)
        case .biometryNotAvailable where (try? await backend.reader()) == nil:
            // fpbridged's client says the same when fpbridged itself does not answer (its socket
            // closed as it stops); asked again, a service that does not answer is that.
            await unreachable(error)
        case .biometryNotAvailable, .biometryDisconnected:
            board.show(KioskSnapshot(.unavailable, message: "noReader", parameters: ["detail": error.message]))
            await pause(pollSeconds, wakeable: false)
        case .biometryNotEnrolled:
            board.show(KioskSnapshot(.unavailable, message: "nobodyEnrolled"))
            await pause(pollSeconds * 5, wakeable: true)
        case .readerBusy where error.cause == .kioskEnrolling:
            // An administrator started enrolling at this reader: the next turn reads how far.
            showEnrolling(nil)
            await pause(enrollingPollSeconds, wakeable: false)
        case .readerBusy:
            // Another program holds the reader for a moment (an enrollment, a verify).
            await pause(1, wakeable: false)
        case .systemCancel:
            // fpbridged stops (a restart, the machine going to sleep): back by itself in a moment.
            absence.stopping(at: clock.now)
            board.show(KioskSnapshot(.unavailable, message: "serviceRestarting", parameters: ["detail": error.message]))
            await pause(pollSeconds, wakeable: true)
        default:
            board.show(KioskSnapshot(.unavailable, message: "readerTrouble", parameters: ["detail": error.message]))
            await pause(pollSeconds, wakeable: true)
        }
    }

    /// Waits `seconds`, or less when `wakeable` and a wake comes. True when a wake ended it.
    @discardableResult
    private func pause(_ seconds: Double, wakeable: Bool) async -> Bool {
        let clock = clock, wake = wake
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { try? await clock.sleep(seconds: seconds); return false }
            if wakeable { group.addTask { await wake.wait(); return !Task.isCancelled } }
            let woken = await group.next() ?? false
            group.cancelAll()
            return woken
        }
    }

    /// An error in the words fpbridged gave, or the error's own.
    static func words(_ error: any Error) -> String {
        (error as? AuthError)?.message ?? String(describing: error)
    }
}

/// What the stream said before its result: the result of a failed identify does not carry
/// the attempts left, the `noMatch` event before it does.
private final class SeenEvents: Sendable {
    private let seen = Locked<(left: Int?, user: String?, confidence: MatchConfidence?)>((nil, nil, nil))
    func record(attemptsLeft: Int) { seen.withLock { $0.left = attemptsLeft } }
    func record(user: String) { seen.withLock { $0.user = user } }
    func record(confidence: MatchConfidence) { seen.withLock { $0.confidence = confidence } }
    var attemptsLeft: Int? { seen.withLock { $0.left } }
    /// Who matched, before the proof failed.
    var user: String? { seen.withLock { $0.user } }
    /// How sure the last touch's decision was, for the log line (empty when nobody scored it).
    var confidence: String {
        seen.withLock { $0.confidence }.map { " (\($0.summary))" } ?? ""
    }
}

/// Whether a tap ended the last rest; a class, so that every copy of the loop shares it.
private final class TapMemory: Sendable {
    private let tapped = Locked(false)
    func remember() { tapped.withLock { $0 = true } }
    func take() -> Bool { tapped.withLock { tapped in defer { tapped = false }; return tapped } }
}
