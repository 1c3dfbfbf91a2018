import FPKiosk
import FPLocalAPI
import FPVocabulary
import Testing

/// Badge and finger (issue 50): past fpbridged's `identificationOpenGalleryLimit` (its refusal
/// `claim-needed`) or with `--badge-first`, the page asks for the user id or badge number and
/// "Use finger", and the loop's next scan compares that person's prints only.
@Suite struct BadgeFirstTests {
    static let claimNeeded = AuthError(.notPermitted, "2001 prints on fake/0 are more than identificationOpenGalleryLimit (2000)",
                                       cause: .claimNeeded)

    struct Rig {
        let clock = VirtualClock()
        let reader: ScriptedReader
        let board: KioskBoard
        let desk: BadgeDesk
        let loop: IdentifyLoop
        let pad: PinPad

        init(_ outcomes: [ScriptedReader.Outcome], always: Bool = false, badges: BadgeList? = nil) {
            reader = ScriptedReader(outcomes)
            board = KioskBoard(clock: clock)
            desk = BadgeDesk(always: always)
            loop = IdentifyLoop(backend: reader, board: board, clock: clock, wake: WakeSignal(), desk: desk)
            pad = PinPad(backend: reader, board: board, badges: badges, desk: desk, clock: clock)
        }
    }

    @Test func aClaimNeededRefusalAsksForTheBadgeAndUseFingerArmsANamedScan() async {
        let rig = Rig([.fail(Self.claimNeeded, events: []), .match("alice")])
        let watched = rig.board.watch()
        #expect(rig.pad.claim(user: "alice").message == "badgeNotNeeded", "before fpbridged said so, a touch is enough")
        await rig.loop.turn()
        #expect(rig.board.current.state == .badgeFirst && rig.board.current.message == "badgeFirst")
        #expect(rig.desk.needed)
        await rig.loop.turn()
        #expect(rig.reader.claims == [nil], "waiting for a name, the loop arms nothing: \(rig.reader.claims)")
        #expect(rig.pad.claim(user: "  ").message == "badgeMissing")
        let taken = rig.pad.claim(user: " alice ")
        #expect(taken.ok && taken.message == "touchReader")
        #expect(rig.pad.claim(user: "bob").message == "badgeBusy", "one claim at a time")
        await rig.loop.turn()
        #expect(rig.reader.claims == [nil, "alice"])
        #expect(rig.reader.timeouts.last == rig.loop.claimedScanSeconds, "a named scan waits \(rig.loop.claimedScanSeconds) s, not the whole burst")
        rig.board.close()
        var seen: [KioskSnapshot] = []
        for await snapshot in watched { seen.append(snapshot) }
        #expect(seen.contains { $0.state == .welcome && $0.user == "alice" }, "\(seen)")
        #expect(seen.firstIndex { $0.state == .badgeFirst }! < seen.firstIndex { $0.state == .welcome }!)
    }

    @Test func withBadgeFirstNothingIsArmedForEveryone() async {
        let rig = Rig([.match("alice")], always: true)
        for _ in 0..<5 { await rig.loop.turn() }
        #expect(rig.reader.claims.isEmpty, "--badge-first armed an identification among everyone: \(rig.reader.claims)")
        #expect(rig.board.current.state == .badgeFirst)
        #expect(rig.pad.claim(user: "alice").ok)
        await rig.loop.turn()
        #expect(rig.reader.claims == ["alice"])
    }

    /// An unknown badge number gets the answer of a person with no print here, and no scan;
    /// a known one is its user's name at fpbridged.
    @Test func anUnknownBadgeIsAnsweredAsNoPrintWithoutAScan() async throws {
        let badges = try BadgeList(parsing: "1001 alice\n", source: "badges")
        let rig = Rig([.fail(AuthError(.biometryNotEnrolled, "bob has no print"), events: [])], always: true, badges: badges)
        #expect(rig.pad.claim(user: "9999").ok, "taken like any number: the pad tells nothing apart")
        await rig.loop.turn()
        #expect(rig.reader.claims.isEmpty)
        #expect(rig.board.current.state == .notRecognised && rig.board.current.message == "badgeNoFinger")
        let unknownResult = rig.board.current.result
        #expect(rig.pad.claim(user: "1001").ok)
        await rig.loop.turn()
        #expect(rig.reader.claims == ["alice"])
        #expect(rig.board.current.message == "badgeNoFinger" && rig.board.current.result == unknownResult + 1,
                "fpbridged's no print for alice reads as the unknown badge did")
    }

    /// A claim left while the reader rests (or the person walked off) lapses.
    @Test func aClaimLapsesUnused() {
        let desk = BadgeDesk(always: true, claimLifetime: 10)
        #expect(desk.offer(.user("alice"), at: 0) == .taken)
        #expect(desk.offer(.user("bob"), at: 9) == .busy)
        #expect(desk.offer(.user("bob"), at: 11) == .taken, "alice's lapsed")
    }

    /// Prints removed meanwhile: the loop asks fpbridged again now and then, and a touch alone
    /// is enough once an identification among everyone runs.
    @Test func theLoopLooksAgainAndGoesBackToATouchAlone() async {
        let rig = Rig([.fail(Self.claimNeeded, events: []), .fail(AuthError(.timedOut, "no finger"), events: [])])
        await rig.loop.turn()
        #expect(rig.desk.needed)
        // Each turn that shows the badge prompt rests badgeFirstSeconds (virtual time).
        var turns = 0
        while rig.reader.claims.count < 2 && turns < 10 {
            await rig.loop.turn()
            turns += 1
        }
        #expect(rig.reader.claims == [nil, nil], "asked again among everyone after \(turns) turns")
        #expect(rig.clock.now >= rig.desk.openRetrySeconds, "not before \(rig.desk.openRetrySeconds) s: \(rig.clock.now)")
        #expect(!rig.desk.needed, "the identification among everyone ran")
    }
}
