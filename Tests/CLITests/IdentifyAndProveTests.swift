import Crypto
import FPKeyFormats
import Foundation
import Testing
import TestSupport

/// A kiosk account: `nobody`, in the group the service is told is the kiosk group.
private let asKiosk = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
/// A stranger: `nobody` with no group the service knows (`nogroup` is not its kiosk group then).
private let asStranger = asKiosk

/// Identify-and-prove through the real `fpbridged` (issue 25, "In fpbridged"): a kiosk member
/// identifies whoever touches the reader and gets their login key's signature over a server's
/// kiosk challenge in the same touch; nobody else may, and nobody picks whose key signs.
@Suite(.serialized) struct IdentifyAndProveTests {
    let directory = TemporaryDirectory()
    let origin = "https://bank.example"
    let challenge = KeyIdentifiers.base64URL(Data(repeating: 9, count: 32))
    var state: String { directory.file("state") }

    init() {
        _ = try? directory.privateDirectory("state")
        chmod(directory.path, 0o755)
    }

    func fake(_ script: String) throws -> String {
        let path = directory.file("script-\(UUID().uuidString.prefix(6)).txt")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        return "fake:" + path
    }

    func label(_ user: String) -> String { KeyIdentifiers.loginKeyLabel(origin: origin, username: user) }

    /// `user` with the passcode 2468, the right index finger `print` enrolled, and a login key for ``origin``.
    func enrollWithKey(_ service: ServiceProcess, user: String, print: String) async throws -> [String: Any] {
        let environment = service.clientEnvironment
        #expect(try await Fpbridge.run(["--json", "--reader", "fake", "--user", user, "passcode", "set", "--passcode-stdin"],
                                       environment: environment, input: "2468\n").status == 0)
        let enrolled = try await Fpbridge.run(["--json", "--reader", try fake(String(repeating: "scan \(print)\n", count: 5)), "--user", user,
                                               "enroll", "--finger", "right-index", "--passcode-stdin"], environment: environment, input: "2468\n")
        #expect(enrolled.status == 0, "\(enrolled.stdout)\(enrolled.stderr)")
        let key = try await service.request("POST", "/v1/keys",
                                            body: #"{"user":"\#(user)","label":"\#(label(user))","accessControl":"biometryCurrentSet"}"#)
        #expect(key.status == 200, "\(key.body)")
        return try #require(key.json["key"] as? [String: Any])
    }

    func prove(_ service: ServiceProcess, _ script: String, extra: String = "", launcher: [String] = asKiosk) async throws -> APIAnswer {
        let body = #"{"operation":"identify-and-prove","reader":"\#(try fake(script))","proof":{"purpose":"kiosk-login","origin":"\#(origin)","challenge":"\#(challenge)"}\#(extra)}"#
        return try await service.request("POST", "/v1/evaluations", body: body, launcher: launcher)
    }

    func counter(_ service: ServiceProcess, _ user: String) async throws -> Int? {
        let answer = try await service.request("GET", "/v1/keys/attestation?user=\(user)&label=\(label(user))")
        return (answer.json["key"] as? [String: Any])?["counter"] as? Int
    }

    @Test func aKioskMemberGetsTheIdentifiedUsersSignatureInOneTouch() async throws {
        let service = try await ServiceProcess(arguments: ["--kiosk-group", "nogroup"], stateDirectory: state)
        _ = try await enrollWithKey(service, user: "alice", print: "a")
        let bob = try await enrollWithKey(service, user: "bob", print: "b")
        // One scan in the script: a second would find it empty.
        let answer = try await prove(service, "scan b")
        let result = try #require(answer.lines.last, "\(answer.body)")
        #expect(answer.status == 200 && result["ok"] as? Bool == true, "\(answer.body)")
        let value = try #require(result["value"] as? [String: Any], "\(answer.body)")
        #expect(value["user"] as? String == "bob" && value["finger"] as? String == "right-index" && value["method"] as? String == "fingerprint")
        let proof = try #require(value["proof"] as? [String: Any])
        let bobPem = try #require(bob["publicKeyPem"] as? String)
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: bobPem)
        #expect(proof["publicKeyPem"] as? String == bob["publicKeyPem"] as? String && proof["label"] as? String == label("bob"))
        let credential = KeyIdentifiers.credentialId(publicKey)
        #expect(proof["credentialId"] as? String == credential && proof["counter"] as? Int == 1)
        #expect(proof["origin"] as? String == origin && proof["challenge"] as? String == challenge && proof["purpose"] as? String == "kiosk-login")
        // What a server checks, from the answer alone: the kiosk-login payload, signed with bob's key and counter 1…
        let payload = AssertionPayload.kioskLogin(origin: origin, challenge: challenge, credentialId: credential)
        let signature = try #require(Data(base64Encoded: proof["signatureBase64"] as? String ?? ""))
        #expect(SignatureFormat.verify(signature: signature, counter: 1, data: payload.bytes, key: publicKey))
        #expect(Data(base64Encoded: proof["messageBase64"] as? String ?? "") == SignatureFormat.message(counter: 1, data: payload.bytes))
        // …and the attestation by the device identity the answer names, about that key.
        let attestation = try #require(proof["attestation"] as? [String: Any])
        let statement = try #require(Data(base64Encoded: attestation["statementBase64"] as? String ?? ""))
        let identityPem = try #require(proof["identityKeyPem"] as? String)
        let identity = try P256.Signing.PublicKey(pemRepresentation: identityPem)
        #expect(AttestationFormat.verify(statement: statement, signature: Data(base64Encoded: attestation["signatureBase64"] as? String ?? "") ?? Data(),
                                         identityKey: identity))
        #expect(AttestationFormat.decode(statement)?.publicKey == publicKey.x963Representation.base64EncodedString())
        let bobCounter = try await counter(service, "bob"), aliceCounter = try await counter(service, "alice")
        #expect(bobCounter == 1 && aliceCounter == 0)
        // A wrong finger: counted per reader as identify's, nothing signed.
        let wrong = try await prove(service, "scan x", extra: #","attempts":1"#)
        #expect((wrong.lines.last?["error"] as? [String: Any])?["name"] as? String == "authenticationFailed", "\(wrong.body)")
        #expect(try await counter(service, "bob") == 1)
    }

    /// Badge and finger with a login server: identify-and-prove under alice's badge compares her
    /// prints alone and signs with her key; under bob's, her finger signs nothing.
    @Test func aClaimedTouchSignsWithTheNamedPersonsKeyOnly() async throws {
        let kiosk = try await ServiceProcess(arguments: ["--kiosk-group", "nogroup"], stateDirectory: state)
        _ = try await enrollWithKey(kiosk, user: "alice", print: "a")
        _ = try await enrollWithKey(kiosk, user: "bob", print: "b")
        let asBob = try await prove(kiosk, "scan a", extra: #","claimedUser":"bob","attempts":1"#)
        #expect((asBob.lines.last?["error"] as? [String: Any])?["name"] as? String == "authenticationFailed", "\(asBob.body)")
        #expect(try await counter(kiosk, "alice") == 0)
        #expect(try await counter(kiosk, "bob") == 0)
        let asAlice = try await prove(kiosk, "scan a", extra: #","claimedUser":"alice""#)
        #expect(asAlice.status == 200 && (asAlice.lines.last?["value"] as? [String: Any])?["user"] as? String == "alice",
                "identify-and-prove under alice's badge: \(asAlice.body)")
        #expect(try await counter(kiosk, "alice") == 1, "her key signed the kiosk's challenge")
    }

    @Test func nobodyElseMayAndNobodyPicksWhoseKeySigns() async throws {
        let kiosk = try await ServiceProcess(arguments: ["--kiosk-group", "nogroup"], stateDirectory: state)
        _ = try await enrollWithKey(kiosk, user: "alice", print: "a")
        // A kiosk member names no user: the key is always the identified one's.
        let named = try await prove(kiosk, "scan a", extra: #","user":"alice""#)
        #expect(named.status == 400 && named.body.contains("takes no 'user'"), "\(named.body)")
        // Nor any other use of a key: the kiosk group may not sign with alice's key, nor list or make hers.
        let sign = try await kiosk.request("POST", "/v1/keys/sign",
                                           body: #"{"user":"alice","label":"\#(label("alice"))","dataBase64":"AAAA","reader":"\#(try fake("scan a"))"}"#,
                                           launcher: asKiosk)
        #expect(sign.status == 403 && sign.errorCode == -2013, "\(sign.body)")
        for path in ["/v1/keys?user=alice", "/v1/keys/attestation?user=alice&label=\(label("alice"))"] {
            let refused = try await kiosk.request("GET", path, launcher: asKiosk)
            #expect(refused.status == 403 && refused.errorCode == -2013, "\(path): \(refused.body)")
        }
        // Nothing but a kiosk login is signed, and a proof belongs to identify-and-prove alone.
        let payment = try await kiosk.request("POST", "/v1/evaluations", body: #"{"operation":"identify-and-prove","reader":"\#(try fake("scan a"))","proof":{"purpose":"payment","origin":"\#(origin)","challenge":"\#(challenge)"}}"#, launcher: asKiosk)
        #expect(payment.status == 400, "\(payment.body)")
        // A finger never signs a PIN's purpose: that is the PIN pad's, after a right PIN.
        let pin = try await kiosk.request("POST", "/v1/evaluations", body: #"{"operation":"identify-and-prove","reader":"\#(try fake("scan a"))","proof":{"purpose":"kiosk-pin-login","origin":"\#(origin)","challenge":"\#(challenge)"}}"#, launcher: asKiosk)
        #expect(pin.status == 400 && pin.body.contains("PIN pad"), "\(pin.body)")
        let stray = try await kiosk.request("POST", "/v1/evaluations", body: #"{"operation":"identify","reader":"\#(try fake("scan a"))","proof":{"purpose":"kiosk-login","origin":"\#(origin)","challenge":"\#(challenge)"}}"#, launcher: asKiosk)
        #expect(stray.status == 400, "\(stray.body)")
        // A claimed person (the kiosk's badge) belongs to an identification alone, and is a user name.
        let claimedVerify = try await kiosk.request("POST", "/v1/evaluations", body: #"{"operation":"verify","claimedUser":"alice","reader":"\#(try fake("scan a"))"}"#, launcher: asKiosk)
        #expect(claimedVerify.status == 400 && claimedVerify.body.contains("identify and identify-and-prove only"), "\(claimedVerify.body)")
        let claimedPath = try await kiosk.request("POST", "/v1/evaluations", body: #"{"operation":"identify","claimedUser":"../alice","reader":"\#(try fake("scan a"))"}"#, launcher: asKiosk)
        #expect(claimedPath.status == 400 && claimedPath.body.contains("claimedUser"), "\(claimedPath.body)")
        #expect(try await counter(kiosk, "alice") == 0)
        kiosk.stop()

        // The same account without the kiosk group: refused, even for its own key and with its own finger.
        let plain = try await ServiceProcess(stateDirectory: state)
        let refused = try await prove(plain, "scan a", launcher: asStranger)
        #expect(refused.status == 403 && refused.errorCode == -2013 && refused.body.contains("identify-and-prove"), "\(refused.body)")
        #expect(try await counter(plain, "alice") == 0)
        // The admin group (and root) may, as they may identify.
        let admin = try await ServiceProcess(arguments: ["--admin-group", "nogroup"], stateDirectory: state)
        let proved = try await prove(admin, "scan a", launcher: asKiosk)
        #expect(((proved.lines.last?["value"] as? [String: Any])?["proof"] as? [String: Any])?["counter"] as? Int == 1, "\(proved.body)")
    }

    @Test func aUserIdentifiedWithoutAKeyOrWithAnInvalidatedOneGetsNoProof() async throws {
        let service = try await ServiceProcess(arguments: ["--kiosk-group", "nogroup"], stateDirectory: state)
        _ = try await enrollWithKey(service, user: "alice", print: "a")
        // carol is enrolled but never bound this device to the server.
        #expect(try await Fpbridge.run(["--json", "--reader", "fake", "--user", "carol", "passcode", "set", "--passcode-stdin"],
                                       environment: service.clientEnvironment, input: "2468\n").status == 0)
        #expect(try await Fpbridge.run(["--json", "--reader", try fake(String(repeating: "scan c\n", count: 5)), "--user", "carol",
                                        "enroll", "--finger", "left-index", "--passcode-stdin"],
                                       environment: service.clientEnvironment, input: "2468\n").status == 0)
        let none = try await prove(service, "scan c")
        let error = try #require(none.lines.last?["error"] as? [String: Any], "\(none.body)")
        #expect(error["name"] as? String == "notFound" && (error["message"] as? String ?? "").contains("carol was identified"), "\(none.body)")
        // A new finger of alice's invalidates her key for good.
        #expect(try await Fpbridge.run(["--json", "--reader", try fake(String(repeating: "scan a2\n", count: 5)), "--user", "alice",
                                        "enroll", "--finger", "left-index", "--passcode-stdin"],
                                       environment: service.clientEnvironment, input: "2468\n").status == 0)
        let invalidated = try await prove(service, "scan a")
        #expect((invalidated.lines.last?["error"] as? [String: Any])?["name"] as? String == "keyInvalidated", "\(invalidated.body)")
        #expect(try await counter(service, "alice") == 0)
    }
}
