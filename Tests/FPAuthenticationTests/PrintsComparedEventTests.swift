import FPLocalAPI
import FPVocabulary
import Foundation
import Testing

/// How many prints an identification compared reaches a service's client as it reaches the
/// in-process prompt.
@Suite struct PrintsComparedEventTests {
    func roundTrip(_ event: AuthEvent) throws -> AuthEvent? {
        try JSONDecoder().decode(WireEvent.self, from: JSONEncoder().encode(WireEvent(event))).event
    }

    @Test func theCountAndTheTimeCrossTheWire() throws {
        let timed = AuthEvent.printsCompared(compared: 412, of: 1_000, matchingSeconds: 0.231)
        #expect(try roundTrip(timed) == timed)
        let untimed = AuthEvent.printsCompared(compared: 1_000, of: 1_000, matchingSeconds: nil)
        #expect(try roundTrip(untimed) == untimed)
        let json = try #require(String(data: JSONEncoder().encode(WireEvent(timed)), encoding: .utf8))
        #expect(json.contains(#""kind":"printsCompared""#) && json.contains(#""galleryCount":1000"#), "\(json)")
    }

    @Test func aLineWithoutItsCountsIsSkippedNotMadeUp() throws {
        let partial = try JSONDecoder().decode(WireEvent.self, from: Data(#"{"kind": "printsCompared", "compared": 3}"#.utf8))
        #expect(partial.event == nil)
    }
}
