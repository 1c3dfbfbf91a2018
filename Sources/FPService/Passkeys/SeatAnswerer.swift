import FPAuthentication
import FPPasskeys

/// The CTAP2 answers of fpbridged's passkey device while `occupant` sits at the seat: each
/// request is checked against the seat again (a device made for one login answers nobody
/// after it), then answered by that user's ``CTAP2Authenticator``, through the engine with the
/// service's reader, state and counters, as the user's own socket request would be.
struct SeatAnswerer: CTAP2Answering {
    let occupant: SeatOccupant
    let face: PasskeyFace
    /// What the device keeps across requests (the PIN/UV state, an enrollment in progress).
    let device: CTAP2DeviceState

    func answer(_ message: [UInt8]) async -> CTAP2Answer {
        switch face.occupant(face.seat) {
        case .success(let present) where present == occupant: break
        case .success(let present):
            return CTAP2Answer(CTAP2Error(.operationDenied, "the seat \(face.seat) now shows uid \(present.uid)'s session \(present.session), not \(occupant.session)"))
        case .failure(let vacancy):
            return CTAP2Answer(CTAP2Error(.operationDenied, "nobody to act for at \(face.seat): \(vacancy.reason)"))
        }
        let target: RequestTarget
        let configuration: AuthConfiguration
        do {
            let caller = try Caller(uid: occupant.uid, configuration: face.service)
            target = try RequestTarget(busUser: caller.user, caller: caller, service: face.service)
            configuration = try target.configuration()
        } catch let refusal as ServiceRefusal {
            return CTAP2Answer(CTAP2Error(.operationDenied, refusal.error.message))
        } catch let error as AuthError {
            return CTAP2Answer(CTAP2Error(error))
        } catch {
            return CTAP2Answer(CTAP2Error(.other, "\(error)"))
        }
        // The reader is taken for the scans only (a turn), so that getInfo holds none.
        let turn: ServiceReaderTurn?
        do {
            turn = try await face.readers.turn(target, required: false, wait: true, timeout: configuration.scanTimeoutSeconds)
        } catch let error as AuthError {
            return CTAP2Answer(CTAP2Error(error))
        } catch {
            return CTAP2Answer(CTAP2Error(.other, "\(error)"))
        }
        let context = target.context(reader: turn?.candidate, turn: turn, configuration: configuration,
                                     printCaches: face.printCaches, tpm: face.service.tpm)
        return await CTAP2Authenticator(passkeys: context.passkeys(protection: .service), device: device).answer(message)
    }
}
