import FPKiosk
import FPLocalAPI
import FPVocabulary
import Synchronization
import Testing

/// What the page is told for each answer of fpbridged.
@Suite struct IdentifyLoopTests {
    private func states(after outcomes: [ScriptedReader.Outcome], turns: Int) async -> [KioskSnapshot] {
        await states(of: ScriptedReader(outcomes), turns: turns)
    }

    /// What the page is told over `turns` of the loop on `backend`; `between` runs after each turn.
    private func states(of backend: any KioskBackend, turns: Int, clock: VirtualClock = VirtualClock(),
                        between: (Int) -> Void = { _ in }) async -> [KioskSnapshot] {
        let board = KioskBoard(clock: clock)
        let loop = IdentifyLoop(backend: backend, board: board, clock: clock, wake: WakeSignal())
        let watched = board.watch()
        for turn in 0..<turns {
            await loop.turn()
            between(turn)
        }
        board.close()
        var seen: [KioskSnapshot] = []
        for await snapshot in watched { seen.append(snapshot) }
        return seen
    }

    @Test func aMatchIsWelcomedByName() async {
        let seen = await states(after: [.match("alice")], turns: 1)
        #expect(seen.map(\.state) == [.starting, .ready, .reading, .welcome])
        #expect(seen.last?.user == "alice" && seen.last?.parameters["user"] == "alice")
    }

    /// A touch too close to call (issue 50): the page asks for the same finger once more, then
    /// welcomes; the ask is no result of its own.
    @Test func aTouchTooCloseToCallAsksForTheSameFingerAgain() async {
        let close = MatchConfidence(bestScore: 66, runnerUpScore: 20, threshold: 63, rule: "near-threshold", touches: 1, uncomparable: 0)
        let confirmed = MatchConfidence(bestScore: 64, runnerUpScore: 25, threshold: 63, rule: "confirmed", touches: 2, uncomparable: 0)
        let seen = await states(after: [.matchAfter([.identificationScored(close), .anotherTouch, .fingerDetected,
                                                     .identificationScored(confirmed)], user: "alice")], turns: 1)
        #expect(seen.map(\.message) == ["starting", "touchReader", "reading", "touchAgain", "reading", "welcome"], "\(seen)")
        #expect(seen.map(\.result) == [0, 0, 0, 0, 0, 1], "\(seen)")
    }

    /// The loop shows each welcome and refusal as a result of its own (numbered), the states
    /// between them as none: alice twice is two results.
    @Test func eachResultAtTheReaderIsNumbered() async {
        let seen = await states(after: [.match("alice"), .match("alice")], turns: 2)
        #expect(seen.map(\.state) == [.starting, .ready, .reading, .welcome, .ready, .reading, .welcome], "\(seen)")
        #expect(seen.map(\.result) == [0, 0, 0, 1, 1, 1, 2], "\(seen)")
    }

    @Test func aStrangerIsNotRecognisedWithTheAttemptsLeft() async {
        let noMatch = ScriptedReader.Outcome.fail(AuthError(.authenticationFailed, "no match"),
                                                  events: [.noMatch(attemptsLeftInEvaluation: 0, attemptsLeftBeforeLockout: 2)])
        let seen = await states(after: [noMatch], turns: 1)
        #expect(seen.last?.state == .notRecognised && seen.last?.parameters["left"] == "2", "\(seen)")
    }

    @Test func aLockoutCountsDownFromRetryAfter() async {
        let locked = ScriptedReader.Outcome.fail(AuthError(.biometryLockout, "locked", retryAfter: 30), events: [])
        let seen = await states(after: [locked], turns: 1)
        #expect(seen.last?.state == .lockedOut && seen.last?.countdown == 30, "\(seen)")
    }

    @Test func aReaderPulledOutIsUnavailable() async {
        let gone = ScriptedReader.Outcome.fail(AuthError(.biometryDisconnected, "pulled out"), events: [])
        let seen = await states(after: [gone], turns: 1)
        #expect(seen.last?.state == .unavailable && seen.last?.message == "noReader", "\(seen)")
    }

    /// fpbridged stopping (`systemctl restart`): "restarting" while it is away, not answering once
    /// that has lasted longer than a restart does, and "restarting" again at the next stop.
    @Test func aStopSaysRestartingUntilTheServiceIsBackOrTooLongAway() async {
        let clock = VirtualClock()
        // The scan ended by the stop, two turns away, one turn 40 s later, then back (and stopped again).
        let seen = await states(of: StoppingService(answers: [true, false, false, true]), turns: 4, clock: clock) { turn in
            if turn == 1 { clock.advance(40) }
        }
        let said = seen.filter { $0.state == .unavailable }.map(\.message)
        #expect(said == ["serviceRestarting", "serviceRestarting", "serviceDown", "serviceRestarting"], "\(seen)")
    }

    /// The socket gone as an identify starts (fpbridged's client says "not available", as for no
    /// reader): restarting, not "no reader". A service never reached is simply not answering.
    @Test func aSocketGoneUnderTheKioskIsRestartingAndOneNeverSeenIsNotAnswering() async {
        let gone = StoppingService(answers: [true, false], identifyError: AuthError(.biometryNotAvailable, "does not answer"))
        let restarting = await states(of: gone, turns: 1)
        #expect(restarting.last?.state == .unavailable && restarting.last?.message == "serviceRestarting", "\(restarting)")
        let never = await states(of: StoppingService(answers: [false]), turns: 1)
        #expect(never.last?.state == .unavailable && never.last?.message == "serviceDown", "\(never)")
    }

    /// A reader too warm for an unannounced scan (10 s of scanning left, under the margin of 15)
    /// rests, and the page asks for a tap; the tap arms a short scan, spending the margin on the
    /// person at the screen, and their finger is read.
    @Test func aTapOnAWarmRestingReaderArmsAScanForThePersonAtTheScreen() async throws {
        let warm = ReaderHeat(ratio: 1 - (1 - ReaderHeat.hotThreshold) * 1.0571)
        let report = ReaderReport.Reader(identity: "virtual_image/0", name: nil, present: true,
                                         temperature: warm.temperature, heat: warm)
        let reader = ScriptedReader([.match("alice")], report: report)
        let clock = GatedClock(), wake = WakeSignal()
        let board = KioskBoard(clock: clock)
        let loop = IdentifyLoop(backend: reader, board: board, clock: clock, wake: wake)
        let watched = board.watch()
        let resting = Task { await loop.turn() }
        var iterator = watched.makeAsyncIterator()
        var shown: KioskSnapshot?
        while let next = await iterator.next() {
            shown = next
            if next.state == .resting { break }
        }
        #expect(shown?.message == "restingTap", "the page does not ask for a tap: \(String(describing: shown))")
        #expect(reader.timeouts.isEmpty, "a scan was armed with \(warm.scanSecondsLeft) s left")
        // The tap, again until the rest (which waits on the gated clock) has taken it.
        let rested = Mutex(false)
        let ended = Task { await resting.value; rested.withLock { $0 = true } }
        while !rested.withLock({ $0 }) {
            wake.wake()
            await Task.yield()
        }
        await ended.value
        clock.open() // the welcome's wait, after the scan, ends at once
        await loop.turn()
        let timeout = try #require(reader.timeouts.first)
        #expect(reader.timeouts.count == 1 && abs(timeout - (warm.scanSecondsLeft - ThermalPlan().wokenMargin)) < 0.5,
                "the tap armed \(reader.timeouts)")
        var after: [KioskSnapshot] = []
        board.close()
        while let next = await iterator.next() { after.append(next) }
        #expect(after.contains { $0.state == .welcome && $0.user == "alice" }, "\(after)")
    }

    @Test func nobodyAtTheReaderKeepsItReady() async {
        let seen = await states(after: [], turns: 3)
        let calm: Set<KioskState> = [.starting, .ready, .reading]
        #expect(Set(seen.map(\.state)).isSubset(of: calm), "\(seen)")
    }

    @Test func theListenAddressMustBeLoopback() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8080").port == 8080)
        #expect(try ListenAddress(parsing: "[::1]:0").host == "::1")
        #expect(try ListenAddress(parsing: "localhost:9").host == "127.0.0.1")
        for outside in ["0.0.0.0:8080", "192.168.1.5:80", "[::]:80", "example.com:80", "127.0.0.1.example.com:80"] {
            #expect(throws: ListenAddressError.self) { try ListenAddress(parsing: outside) }
        }
    }
}
