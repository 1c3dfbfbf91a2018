@testable import FPService
import FPAuthentication
import FPReaders
import Testing

/// Issue 41 §3: `readerFailure` is also what the TPM, a key's signature and other work inside a
/// reader's turn report, and every one of them closed the reader, so that a key error cost the
/// next request a cold open. Only the reader's own failures (libfprint's error carried in
/// `readerFault`) and a reader gone close it now.
@Suite struct ReaderTurnEndTests {
    @Test func theReadersOwnFailuresAndARemovedReaderCloseIt() {
        #expect(ServiceReaderTurn.closesReader(ReaderError.general("the device stopped answering")))
        #expect(ServiceReaderTurn.closesReader(AuthError(ReaderError.protocolError("short read"))))
        #expect(ServiceReaderTurn.closesReader(ReaderError.removed))
        #expect(ServiceReaderTurn.closesReader(AuthError(.biometryDisconnected, "the reader was pulled out")))
    }

    @Test func workThatIsNotTheReadersKeepsItWarm() {
        #expect(!ServiceReaderTurn.closesReader(AuthError(.readerFailure, "the TPM: TPM_RC_LOCKOUT")))
        #expect(!ServiceReaderTurn.closesReader(AuthError(.readerFailure, "the key signed no payload")))
        #expect(!ServiceReaderTurn.closesReader(AuthError(.keyInvalidated, "the prints changed since the key was made")))
        #expect(!ServiceReaderTurn.closesReader(AuthError(.authenticationFailed, "no match")))
        #expect(!ServiceReaderTurn.closesReader(CancellationError()))
        // As before: a busy or hot reader is not closed for it.
        #expect(!ServiceReaderTurn.closesReader(ReaderError.busy))
        #expect(!ServiceReaderTurn.closesReader(ReaderError.tooHot(usableInSeconds: 30)))
    }
}
