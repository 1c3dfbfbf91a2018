import FPLocalAPI
import FPVocabulary
import FPAuthentication
import Foundation
import Testing

/// `api/fpbridged.openapi.yaml` lists every error code, name and cause the service can answer
/// with (its `WireError`): a code added to the vocabulary (as -2014 `pinPadResting` was, and
/// went undocumented) or a new cause fails here until the document says it.
@Suite struct ServiceErrorDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `enum: [...]` list of `property` inside the document's `WireError` schema.
    func listed(_ property: String) throws -> Set<String> {
        let document = try String(contentsOf: Self.root.appendingPathComponent("api/fpbridged.openapi.yaml"), encoding: .utf8)
        let schema = try #require(document.components(separatedBy: "\n    WireError:\n").dropFirst().first?
            .components(separatedBy: "\n    ErrorBody:\n").first, "no WireError schema")
        let start = try #require(schema.range(of: "\n        \(property):"), "WireError has no \(property)")
        let list = try #require(schema[start.upperBound...].components(separatedBy: "enum: [").dropFirst().first?
            .components(separatedBy: "]").first, "\(property) has no enum")
        return Set(list.split(whereSeparator: { ", \n".contains($0) }).map(String.init))
    }

    @Test func everyCodeNameAndCauseTheServiceSendsIsDocumented() throws {
        // Apple's codes that nothing here produces are left out of the document on purpose.
        let never: Set<AuthErrorCode> = [.companionNotAvailable, .biometryNotPaired, .invalidDimensions]
        let sent = AuthErrorCode.allCases.filter { !never.contains($0) }
        #expect(try listed("code") == Set(sent.map { String($0.rawValue) }))
        #expect(try listed("name") == Set(sent.map(\.name)))
        #expect(try listed("cause") == Set(AuthErrorCause.allCases.map(\.rawValue)))
    }
}

/// The document's `WireEvent` lists every kind of event the service streams: `printsCompared`
/// went out undocumented for months, and a schema with `additionalProperties: false` then
/// refuses every identification's stream.
@Suite struct ServiceEventDocumentTests {
    /// One event of every kind; the switch makes a new kind fail to compile here until it is listed.
    static let everyKind: [AuthEvent] = {
        let samples: [AuthEvent] = [
            .presentFinger(.press), .fingerDetected, .readerWarming(scanSecondsLeft: 5), .retryHint(.tooShort),
            .noMatch(attemptsLeftInEvaluation: 1, attemptsLeftBeforeLockout: 2), .fallbackOffered(title: "x"),
            .lockedOut(retryAfter: nil), .passcodeRequested(attemptsLeftBeforeLockout: 3), .passcodeRejected(attemptsLeftBeforeLockout: 2),
            .printSkipped("x"), .printsCompared(compared: 1, of: 2, matchingSeconds: nil),
            .identificationScored(MatchConfidence(bestScore: 1, runnerUpScore: nil, threshold: 40, rule: "below-threshold", touches: 1, uncomparable: 0)),
            .anotherTouch, .matched(user: "alice", finger: nil),
        ]
        for sample in samples {
            switch sample {
            case .presentFinger, .fingerDetected, .readerWarming, .retryHint, .noMatch, .fallbackOffered, .lockedOut,
                 .passcodeRequested, .passcodeRejected, .printSkipped, .printsCompared, .identificationScored, .anotherTouch, .matched: break
            }
        }
        return samples
    }()

    @Test func everyKindAndFieldIsInTheSchema() throws {
        let document = try String(contentsOf: ServiceErrorDocumentTests.root.appendingPathComponent("api/fpbridged.openapi.yaml"), encoding: .utf8)
        let schema = try #require(document.components(separatedBy: "\n    WireEvent:\n").dropFirst().first?
            .components(separatedBy: "\n    MatchConfidence:\n").first, "no WireEvent schema followed by MatchConfidence")
        let list = try #require(schema.components(separatedBy: "enum: [").dropFirst().first?.components(separatedBy: "]").first)
        let kinds = Set(list.split(whereSeparator: { ", \n".contains($0) }).map(String.init))
        for event in Self.everyKind {
            let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(WireEvent(event))) as? [String: Any])
            let kind = try #require(json["kind"] as? String)
            #expect(kinds.contains(kind), "WireEvent's kind enum lacks \(kind)")
            for field in json.keys where field != "kind" {
                #expect(schema.contains("\n        \(field):"), "WireEvent's properties lack \(field) (of \(kind))")
            }
        }
    }
}
