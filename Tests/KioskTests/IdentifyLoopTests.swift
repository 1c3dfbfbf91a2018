import FPKiosk
import FPVocabulary
import Testing

/// What the page is told for each answer of fpbridged.
@Suite struct IdentifyLoopTests {
    private func states(after outcomes: [ScriptedReader.Outcome], turns: Int) async -> [KioskSnapshot] {
        let clock = VirtualClock()
        let board = KioskBoard(clock: clock)
        let loop = IdentifyLoop(backend: ScriptedReader(outcomes), board: board, clock: clock, wake: WakeSignal())
        let watched = board.watch()
        for _ in 0..<turns { await loop.turn() }
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
