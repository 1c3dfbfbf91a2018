import FPKiosk
import FPLocalAPI
import FPVocabulary
import Synchronization

/// Virtual time for the loop: a sleep moves it on at once, so an hour of rests and bursts
/// runs in a moment.
final class VirtualClock: KioskClock {
    private let time = Mutex(0.0)

    var now: Double { time.withLock { $0 } }

    func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        advance(seconds)
    }

    func advance(_ seconds: Double) { time.withLock { $0 += max(0, seconds) } }
}

/// An image reader under libfprint's thermal model that nobody touches: every scan waits its
/// whole timeout, heating the reader, and is cut off as too hot when the heat gets there.
final class IdleImageReader: KioskBackend {
    private struct State {
        var heat = ReaderHeat()
        var updated = 0.0
        var scanning = 0.0
        var cutOffs = 0
    }

    private let state = Mutex(State())
    let clock: VirtualClock

    init(clock: VirtualClock) { self.clock = clock }

    /// Seconds spent armed, and scans stopped as too hot.
    var scanned: Double { state.withLock { $0.scanning } }
    var cutOffs: Int { state.withLock { $0.cutOffs } }

    /// The heat now, the time since the last scan counted as rest.
    private func cooled(_ state: inout State) {
        let now = clock.now
        state.heat = state.heat.after(active: false, seconds: now - state.updated)
        state.updated = now
    }

    func reader() async throws -> ReaderReport.Reader {
        state.withLock { state in
            cooled(&state)
            return ReaderReport.Reader(identity: "virtual_image/0", name: nil, present: true,
                                       temperature: state.heat.temperature, heat: state.heat)
        }
    }

    func identify(timeoutSeconds: Double, claimedUser: String?, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> Identified {
        let (seconds, error) = state.withLock { state -> (Double, AuthError) in
            cooled(&state)
            if state.heat.hot { return (0, AuthError(.readerTooHot, "too hot", retryAfter: state.heat.usableInSeconds)) }
            let left = state.heat.scanSecondsLeft
            if timeoutSeconds >= left {
                state.cutOffs += 1
                state.heat = ReaderHeat(ratio: ReaderHeat.hotThreshold, hot: true)
                state.scanning += left
                return (left, AuthError(.readerTooHot, "too hot", retryAfter: state.heat.usableInSeconds))
            }
            state.heat = state.heat.after(active: true, seconds: timeoutSeconds)
            state.scanning += timeoutSeconds
            return (timeoutSeconds, AuthError(.timedOut, "no finger"))
        }
        clock.advance(seconds)
        state.withLock { $0.updated = clock.now }
        throw error
    }

    func checkPasscode(user: String, passcode: String, unmapped: Bool) async throws -> Identified { Identified(user: user) }
}

/// A reader that answers each identify from a list, for the page's states.
final class ScriptedReader: KioskBackend {
    enum Outcome: Sendable {
        case match(String)
        /// A match after these events (a second touch asked for, say).
        case matchAfter([AuthEvent], user: String)
        case fail(AuthError, events: [AuthEvent])
    }

    private let outcomes: Mutex<[Outcome]>
    private let asked = Mutex<[Double]>([])
    private let named = Mutex<[String?]>([])
    let report: ReaderReport.Reader

    /// The timeout of each identify asked for, in order.
    var timeouts: [Double] { asked.withLock { $0 } }
    /// The claimed user of each identify asked for (nil: among everyone), in order.
    var claims: [String?] { named.withLock { $0 } }

    /// A reader that never overheats, as the fake reader and match-on-chip ones report.
    init(_ outcomes: [Outcome],
         report: ReaderReport.Reader = ReaderReport.Reader(identity: "fake/0", name: nil, present: true, temperature: nil, heat: nil)) {
        self.outcomes = Mutex(outcomes)
        self.report = report
    }

    func reader() async throws -> ReaderReport.Reader { report }

    func identify(timeoutSeconds: Double, claimedUser: String?, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> Identified {
        asked.withLock { $0.append(timeoutSeconds) }
        named.withLock { $0.append(claimedUser) }
        let next = outcomes.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        event(.fingerDetected)
        switch next {
        case .match(let user): return Identified(user: user)
        case .matchAfter(let events, let user):
            events.forEach(event)
            return Identified(user: user)
        case .fail(let error, let events):
            events.forEach(event)
            throw error
        case nil: throw AuthError(.timedOut, "no finger")
        }
    }

    func checkPasscode(user: String, passcode: String, unmapped: Bool) async throws -> Identified {
        guard user == "bob", passcode == "1234", !unmapped else { throw AuthError(.authenticationFailed, "wrong user or PIN") }
        return Identified(user: user)
    }
}

/// fpbridged stopping under the kiosk: each `reader()` answers or finds no service, from a list
/// (then answers); every identify ends with `identifyError` (the stop's, by default).
final class StoppingService: KioskBackend {
    private let answers: Mutex<[Bool]>
    let identifyError: AuthError

    init(answers: [Bool], identifyError: AuthError = AuthError(.systemCancel, "fpbridged is stopping")) {
        self.answers = Mutex(answers)
        self.identifyError = identifyError
    }

    func reader() async throws -> ReaderReport.Reader {
        guard answers.withLock({ $0.isEmpty ? true : $0.removeFirst() }) else {
            // What the service's client says for a socket nobody listens on.
            throw AuthError(.biometryNotAvailable, "the fpbridge service does not answer at /run/fpbridged.sock")
        }
        return ReaderReport.Reader(identity: "fake/0", name: nil, present: true, temperature: nil, heat: nil)
    }

    func identify(timeoutSeconds: Double, claimedUser: String?, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> Identified {
        throw identifyError
    }

    func checkPasscode(user: String, passcode: String, unmapped: Bool) async throws -> Identified {
        throw AuthError(.biometryNotAvailable, "the fpbridge service does not answer")
    }
}

/// A clock whose waits last until the test opens it (or their task is cancelled): a rest the
/// loop is in stays there while the test taps the screen. Once open, waits end at once.
final class GatedClock: KioskClock {
    private struct Gate {
        var open = false
        var next = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelledEarly: Set<Int> = []
    }
    private let gate = Mutex(Gate())

    var now: Double { 0 }

    func sleep(seconds: Double) async throws {
        let id = gate.withLock { gate in defer { gate.next += 1 }; return gate.next }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = gate.withLock { gate -> Bool in
                    if gate.open || gate.cancelledEarly.remove(id) != nil { return true }
                    gate.waiting[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiting = gate.withLock { gate -> CheckedContinuation<Void, Never>? in
                if let continuation = gate.waiting.removeValue(forKey: id) { return continuation }
                gate.cancelledEarly.insert(id)
                return nil
            }
            waiting?.resume()
        }
        try Task.checkCancellation()
    }

    /// Ends every wait, and every later one at once.
    func open() {
        let waiting = gate.withLock { gate in
            gate.open = true
            defer { gate.waiting = [:] }
            return Array(gate.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}
