import FPAuthentication
import FPReaders
import FPService
import Testing

/// fpbridged's fprintd face names a reader's error from libfprint's device error, carried
/// through the engine's ``AuthError`` (``AuthError/readerFault``), not from the error's code
/// (which groups several) nor its text. `FprintdDeviceErrorTests` measures the names against
/// fprintd itself; these are the ones a virtual reader cannot raise (removed, too hot) and
/// the rule that a cancel is named as a cancel.
@Suite struct FprintdEndingTests {
    static let cases: [(error: ReaderError, enroll: String, verify: String)] = [
        (.protocolError("bad answer"), "enroll-disconnected", "verify-disconnected"),
        (.storageFull, "enroll-data-full", "verify-unknown-error"),
        (.general("driver failed"), "enroll-unknown-error", "verify-unknown-error"),
        (.dataInvalid("bad data"), "enroll-unknown-error", "verify-unknown-error"),
        (.busy, "enroll-unknown-error", "verify-unknown-error"),
        (.notSupported("this operation"), "enroll-unknown-error", "verify-unknown-error"),
        (.printNotFound, "enroll-unknown-error", "verify-no-match"),
        (.duplicatePrint, "enroll-duplicate", "verify-unknown-error"),
        // As fprintd names them since 1.94.5 (docs/desktop.md: where it differs from fprintd on purpose).
        (.removed, "enroll-disconnected", "verify-disconnected"),
        (.tooHot(usableInSeconds: 90), "enroll-disconnected", "verify-disconnected"),
        (.tooHot(usableInSeconds: nil), "enroll-disconnected", "verify-disconnected"),
    ]

    @Test(arguments: cases.indices)
    func aReadersErrorIsNamedByWhichErrorItWas(index: Int) {
        let (error, enroll, verify) = Self.cases[index]
        let names = FprintdEnding.names(AuthError(error))
        #expect(names.enroll == enroll, "\(error)")
        #expect(names.verify == verify, "\(error)")
    }

    @Test func errorsWithOneCodeKeepTheirOwnNames() {
        let full = AuthError(ReaderError.storageFull), protocolError = AuthError(ReaderError.protocolError("x"))
        #expect(full.code == protocolError.code, "both are reader failures to the engine")
        #expect(FprintdEnding.names(full) != FprintdEnding.names(protocolError))
    }

    @Test(arguments: [CancelReason.app, .user])
    func aCancelIsNamedAsACancelWhateverTheReaderSaid(reason: CancelReason) {
        let names = FprintdEnding.names(CancelReason.outcome(ReaderError.protocolError("cancelled under it"), reason: reason))
        #expect(names.enroll == "enroll-failed" && names.verify == "verify-no-match", "\(names)")
    }
}
