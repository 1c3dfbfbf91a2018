import FPPasskeys
import Logging
import SystemPackage

/// fpbridged's passkey device (issue 52, `--passkeys on`): a USB security key made through
/// `/dev/uhid`, answering CTAP2 for the person at the seat and nobody else.
///
/// A hidraw node names no process, so the device cannot tell who writes to it: it exists only
/// while a user sits at the seat (``SeatOccupant``: a local user session shown there, that
/// user with no session anywhere else), and it is made anew for each occupant. When the seat
/// changes hands (another login, a greeter or lock screen shown, an SSH login of the user) the
/// device is destroyed, so that every descriptor the previous occupant's programs opened fails,
/// and each request is checked against the seat again before the finger is asked for.
struct PasskeyFace: Sendable {
    /// How the kernel names the device: the pid.codes test ID (0x1209/0x0001), as a project
    /// with no USB vendor ID of its own may use; the bus says USB, as hosts look for.
    static let identity = UHIDEvent.Identity(name: "fpbridge fingerprint passkey", bus: 0x03, vendor: 0x1209, product: 0x0001)
    /// How often the seat is read. logind's records change in place; a second is the longest a
    /// device outlives its occupant's session (each request is checked at once as well).
    static let seatInterval: Duration = .seconds(1)

    let service: ServiceConfiguration
    let readers: ServiceReaders
    let printCaches: PrintCaches
    /// The seat whose occupant the device serves (logind's name).
    var seat = "seat0"
    var uhidPath: FilePath = "/dev/uhid"
    /// Who sits at a seat; logind's records through presence.c unless a test says otherwise.
    var occupant: @Sendable (String) -> Result<SeatOccupant, SeatVacancy> = SeatOccupant.of
    var clock: any Clock<Duration> = ContinuousClock()

    /// Follows the seat until the task is cancelled; the device goes with it.
    func run(logger: Logger) async {
        var serving: Serving?
        var said = ""
        func say(_ line: String, error: Bool = false) {
            // Each change once: a missing /dev/uhid is not worth a line a second.
            guard line != said else { return }
            said = line
            if error { logger.error("\(line)") } else { logger.info("\(line)") }
        }
        while !Task.isCancelled {
            let present = occupant(seat)
            let wanted = try? present.get()  // a vacancy is no one to serve, and its reason is said below
            if serving?.occupant != wanted {
                if let old = serving {
                    old.close()
                    await old.work.value
                    serving = nil
                    say("passkeys: the device made for uid \(old.occupant.uid) (session \(old.occupant.session)) is gone")
                }
                if let wanted {
                    do {
                        serving = try serve(wanted, logger: logger)
                        say("passkeys: a security key for uid \(wanted.uid) (session \(wanted.session) at \(seat))")
                    } catch {
                        say("passkeys: no device for uid \(wanted.uid): \(error)", error: true)
                    }
                }
            }
            if case .failure(let vacancy) = present { say("passkeys: no device: \(vacancy.reason)") }
            do { try await clock.sleep(for: Self.seatInterval) } catch { break }
        }
        if let serving {
            serving.close()
            await serving.work.value
        }
    }

    /// One device for one occupant: the kernel's reports into CTAPHID and CTAPHID's back.
    private struct Serving {
        let occupant: SeatOccupant
        let hid: UHIDDevice
        let device: CTAPHIDDevice
        let state: CTAP2DeviceState
        let work: Task<Void, Never>

        func close() {
            hid.close()
            // An enrollment begun for this occupant must not take the next person's touch.
            state.close()
        }
    }

    private func serve(_ occupant: SeatOccupant, logger: Logger) throws(UHIDFailure) -> Serving {
        let hid = try UHIDDevice.open(path: uhidPath, identity: Self.identity, descriptor: FIDOReportDescriptor.bytes)
        // The PIN/UV state and an enrollment live as long as the device: a new occupant's device starts afresh.
        let state = CTAP2DeviceState(clock: clock)
        let answerer = SeatAnswerer(occupant: occupant, face: self, device: state)
        let device = CTAPHIDDevice(authenticator: answerer, clock: clock)
        let work = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in hid.events {
                        switch event {
                        case .output(let report): await device.receive(report)
                        case .getReport, .setReport:
                            do { try hid.refuse(event) } catch { logger.error("passkeys: \(error)") }
                        default: break
                        }
                    }
                    // The kernel's side is gone (closed, or failed): so is every request.
                    await device.close()
                }
                group.addTask {
                    for await report in device.reports {
                        do { try hid.send(report) } catch {
                            logger.error("passkeys: \(error)")
                            hid.close()
                        }
                    }
                }
                group.addTask {
                    for await answer in device.answers {
                        if let reason = answer.reason {
                            logger.info("passkeys: uid \(occupant.uid): refused with \(answer.status): \(reason)")
                        }
                    }
                }
            }
        }
        return Serving(occupant: occupant, hid: hid, device: device, state: state, work: work)
    }
}
