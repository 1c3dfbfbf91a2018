import FPAccountAPI
import FPAccountLoad
import FPKeyFormats
import Foundation
import Testing
import TestSupport

/// Issue 36, finding 5: anyone with the password fills an account's three pending approvals, so
/// the owner's own new device gets 429 for ten minutes at a time. The owner's way past it needs
/// what the password thief lacks, a finger on a bound device: an invitation, a one-time binding
/// code the new device binds with at once. Against the real server, on both stores.
@Suite struct InvitationTests {
    func invitation(_ harness: Harness, by device: SoftwareDevice, counter: UInt64) async throws -> LoginServerProcess.Answer {
        let asked = try await harness.server.request("POST", "/v1/invitations/challenges",
                                                     json: ChallengeRequest(username: "alice", credentialId: device.credentialId))
        #expect(asked.status == 201, "\(String(decoding: asked.body, as: UTF8.self))")
        let challenge = try harness.decode(asked, as: Challenge.self)
        #expect(challenge.purpose == "invite-device")
        let payload = AssertionPayload.invitation(origin: harness.server.origin, challenge: challenge.challenge, credentialId: device.credentialId)
        return try await harness.server.request("POST", "/v1/invitations", json: device.assertion(challenge, payload: payload, counter: counter))
    }

    @Test(arguments: Storage.allCases)
    func theOwnersBoundDeviceInvitesPastApprovalsAThiefKeepsFull(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        // The thief, with alice's password, keeps the three approval slots full.
        for index in 0..<3 {
            let waiting = try await harness.server.request("POST", "/v1/devices", json: SoftwareDevice().bindRequest(name: "thief \(index)",
                                                                                                                  requestApproval: true),
                                                           token: harness.session)
            #expect(waiting.status == 202)
        }
        let laptop = SoftwareDevice(localUser: "alice")
        let blocked = try await harness.server.request("POST", "/v1/devices", json: laptop.bindRequest(name: "laptop", requestApproval: true),
                                                       token: harness.session)
        #expect(blocked.status == 429 && String(decoding: blocked.body, as: UTF8.self).contains("fpbridge account invite"))

        // alice's finger on her bound device makes a code; the laptop binds with it at once.
        let invited = try await invitation(harness, by: harness.device, counter: 1)
        #expect(invited.status == 201, "\(String(decoding: invited.body, as: UTF8.self))")
        let code = try harness.decode(invited, as: Invitation.self)
        #expect(code.username == "alice" && code.expiresAt > harness.server.now)
        let bound = try await harness.server.request("POST", "/v1/devices", json: laptop.bindRequest(name: "laptop", bindingCode: code.code),
                                                     token: harness.session)
        #expect(bound.status == 201, "\(String(decoding: bound.body, as: UTF8.self))")
        #expect(try await harness.login(counter: 1, device: laptop).status == 200)
        // Once: the thief cannot bind with the same code.
        let reused = try await harness.server.request("POST", "/v1/devices", json: SoftwareDevice().bindRequest(bindingCode: code.code),
                                                      token: harness.session)
        #expect(reused.status == 403 && reused.errorCode == "bindingCodeInvalid")
        #expect(try await harness.successes("invite") == 1)
    }

    @Test(arguments: Storage.allCases)
    func onlyABoundDevicesSignatureOverAnInvitationMakesOne(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        // A key that is not bound gets no challenge; a stranger's signature does not verify.
        let stranger = SoftwareDevice()
        let unbound = try await harness.server.request("POST", "/v1/invitations/challenges",
                                                       json: ChallengeRequest(username: "alice", credentialId: stranger.credentialId))
        #expect(unbound.status == 401 && unbound.errorCode == "invalidCredentials")
        let challenge = try harness.decode(try await harness.server.request(
            "POST", "/v1/invitations/challenges", json: ChallengeRequest(username: "alice", credentialId: harness.device.credentialId)),
            as: Challenge.self)
        var forged = stranger.assertion(challenge, payload: .invitation(origin: harness.server.origin, challenge: challenge.challenge,
                                                                        credentialId: harness.device.credentialId), counter: 1)
        forged.credentialId = harness.device.credentialId
        let refused = try await harness.server.request("POST", "/v1/invitations", json: forged)
        #expect(refused.status == 401 && refused.errorCode == "verificationFailed")
        // alice's own login signature over that challenge is not an invitation (the purpose is signed)…
        let login = harness.device.assertion(challenge, payload: .login(origin: harness.server.origin, challenge: challenge.challenge,
                                                                        credentialId: harness.device.credentialId), counter: 1)
        #expect(try await harness.server.request("POST", "/v1/invitations", json: login).errorCode == "verificationFailed")
        // …and a login challenge does not make one either.
        let loginChallenge = try harness.decode(try await harness.challenge(), as: Challenge.self)
        let crossed = harness.device.assertion(loginChallenge, payload: .invitation(origin: harness.server.origin,
                                                                                    challenge: loginChallenge.challenge,
                                                                                    credentialId: harness.device.credentialId), counter: 1)
        #expect(try await harness.server.request("POST", "/v1/invitations", json: crossed).errorCode == "challengeInvalid")
        #expect(try await harness.successes("invite") == 0)
    }
}
