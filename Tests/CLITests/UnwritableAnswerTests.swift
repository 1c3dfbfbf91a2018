@testable import FPService
import FPAuthentication
import FPLocalAPI
import Foundation
import Testing

/// Issue 41 §4: an answer the service could not encode went out as a 200 with no fields (and a
/// failure body that could not be encoded as `{}` under its status). It is now a 500 in the
/// documented failure shape, naming why.
@Suite struct UnwritableAnswerTests {
    struct Reading: Encodable {
        let user = "alice"
        let score: Double
    }

    @Test func anAnswerThatCannotBeEncodedIsA500NotASuccess() throws {
        let (status, data) = JSONBodies.body(.ok, Reading(score: .nan))
        #expect(status == .internalServerError)
        let failure = try WireCoding.decoder().decode(FailureBody.self, from: data)
        #expect(failure.ok == false)
        #expect(failure.error.name == "readerFailure" && failure.error.code == -2006)
        #expect(failure.error.message.contains("could not write its answer"))
        #expect(failure.error.message.contains("NaN") || failure.error.message.lowercased().contains("nan"),
                "the cause is named: \(failure.error.message)")

        let success = JSONBodies.ok(Reading(score: .nan))
        #expect(success.status == .internalServerError, "never a 200 without its fields")
        #expect(JSONBodies.ok(Reading(score: 1.5)).status == .ok)
        #expect(JSONBodies.body(.ok, Reading(score: 1.5)).0 == .ok)
    }

    @Test func aRefusalThatCannotBeEncodedIsA500NotAnEmptyObject() throws {
        let refusal = JSONBodies.failure(AuthError(.readerBusy, "the reader is busy", retryAfter: .nan))
        #expect(refusal.status == .internalServerError)
        let (status, data) = JSONBodies.body(.serviceUnavailable, FailureBody(AuthError(.readerBusy, "busy", retryAfter: .infinity)))
        #expect(status == .internalServerError)
        #expect(try WireCoding.decoder().decode(FailureBody.self, from: data).error.code == -2006)
    }
}
