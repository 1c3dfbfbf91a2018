import Crypto
@testable import FPAuthentication
import FPStore
import Foundation
import Synchronization
import Testing

/// Issue 41 §2: a new key's attestation was signed inside the state's file lock, and with a
/// TPM that signature is a session, the storage key made again and a signing: every other
/// request on the same state waited for it. The lock is for reads and writes only
/// (architecture.md): the signature is made before it, and only the identity's first making
/// takes it (so that two first keys make one identity).
@Suite struct KeyAttestationLockTests {
    let harness = EngineHarness()

    /// A device identity (as the TPM's is) that records, at each signature, whether the state's
    /// lock was held, and whether its key was made under the lock.
    final class WatchedIdentity: DeviceIdentityKey {
        let key = P256.Signing.PrivateKey()
        let made = Mutex(false)
        let madeUnderLock = Mutex<Bool?>(nil)
        let signedUnderLock = Mutex<[Bool]>([])

        func publicKey(create: Bool) throws(AuthError) -> P256.Signing.PublicKey? {
            if made.withLock({ $0 }) { return key.publicKey }
            guard create else { return nil }
            made.withLock { $0 = true }
            madeUnderLock.withLock { $0 = StateLock.isHeld }
            return key.publicKey
        }

        func signature(for data: Data) throws(AuthError) -> Data {
            signedUnderLock.withLock { $0.append(StateLock.isHeld) }
            do { return try key.signature(for: data).derRepresentation } catch { throw AuthError(.readerFailure, "\(error)") }
        }
    }

    @Test func theIdentitySignsOutsideTheStateLockAndIsMadeUnderIt() async throws {
        try await harness.setPasscode()
        let identity = WatchedIdentity()
        var environment = try await harness.context("", reader: false).environment
        environment.deviceIdentity = identity
        let vault = AuthenticationContext(environment: environment).keys(protection: .service)

        let first = try vault.create(label: "first", accessControl: .devicePasscode)
        let second = try vault.create(label: "second", accessControl: .devicePasscode)
        #expect(identity.madeUnderLock.withLock { $0 } == true, "the identity's first making takes the lock")
        #expect(identity.signedUnderLock.withLock { $0 } == [false, false], "each attestation is signed outside the state's lock")

        // The attestations verify with the identity, over the statements stored.
        for description in [first, second] {
            let record = try #require(try KeyStore(directory: harness.state).record(user: "alice", label: description.label))
            let signature = try P256.Signing.ECDSASignature(derRepresentation: record.attestationSignature)
            #expect(identity.key.publicKey.isValidSignature(signature, for: record.attestationStatement))
        }

        // A key refused under the lock (its label taken) was signed for and stores nothing new.
        #expect(throws: AuthError.self) { try vault.create(label: "first", accessControl: .devicePasscode) }
        #expect(try vault.list().map(\.label).sorted() == ["first", "second"])
    }
}
