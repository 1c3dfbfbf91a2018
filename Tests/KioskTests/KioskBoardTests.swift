import FPKiosk
import Testing

/// What the board hands to pages that watch, and what it keeps for those that come later.
@Suite struct KioskBoardTests {
    /// Every snapshot `stream` holds once the board is closed.
    private func drained(_ stream: AsyncStream<KioskSnapshot>) async -> [KioskSnapshot] {
        var seen: [KioskSnapshot] = []
        for await snapshot in stream { seen.append(snapshot) }
        return seen
    }

    /// Issue 36: a page that connected after a welcome got the welcomed user's login session
    /// first thing, and the 10 s repeat sent it again to every page.
    @Test func aSessionGoesOnlyToThePagesWatchingAtTheWelcome() async {
        let board = KioskBoard(clock: VirtualClock())
        let watching = board.watch()
        board.showResult(KioskSnapshot(.welcome, message: "welcome", parameters: ["user": "alice"], user: "alice", session: "token-1"))
        let late = board.watch()
        board.repeatCurrent()
        board.close()

        let early = await drained(watching)
        #expect(early.map(\.session) == [nil, "token-1", nil], "\(early)")
        let after = await drained(late)
        #expect(after.map(\.state) == [.welcome, .welcome] && after.allSatisfy { $0.user == "alice" && $0.session == nil }, "\(after)")
        #expect(board.current.session == nil && board.current.user == "alice")
    }

    /// The same welcome twice (one person, two sessions) is sent twice: the second session is new.
    @Test func aSecondSessionForTheSameWelcomeIsSentToo() async {
        let board = KioskBoard(clock: VirtualClock())
        let watching = board.watch()
        for token in ["token-1", "token-2"] {
            board.showResult(KioskSnapshot(.welcome, message: "welcome", parameters: ["user": "alice"], user: "alice", session: token))
        }
        // The welcome shown again, not a new result: not sent.
        board.show(KioskSnapshot(.welcome, message: "welcome", parameters: ["user": "alice"], user: "alice"))
        board.close()
        #expect(await drained(watching).map(\.session) == [nil, "token-1", "token-2"])
    }

    /// The page tells the next person's result by its number: the same stranger twice is two
    /// results (the page took the second for a repeat when it compared what they said), and the
    /// kiosk's repeat of its state every 10 s is none, nor is a state between results.
    @Test func eachResultIsNumberedAndARepeatKeepsTheNumber() async {
        let board = KioskBoard(clock: VirtualClock())
        let watching = board.watch()
        let stranger = KioskSnapshot(.notRecognised, message: "notRecognised")
        board.showResult(stranger)
        board.showResult(stranger)
        board.repeatCurrent()
        board.show(KioskSnapshot(.ready, message: "touchReader"))
        board.showResult(KioskSnapshot(.lockedOut, message: "lockedOut", countdown: 30))
        board.repeatCurrent()
        board.close()
        let seen = await drained(watching)
        #expect(seen.map(\.state) == [.starting, .notRecognised, .notRecognised, .notRecognised, .ready, .lockedOut, .lockedOut], "\(seen)")
        #expect(seen.map(\.result) == [0, 1, 2, 2, 2, 3, 3], "\(seen)")
        #expect(board.current.result == 3)
    }
}
