import FPLocalAPI
import FPReaders
import FoundationEssentials
import Glibc

/// Everything `fpbridge doctor` looks at, turned into findings.
struct DoctorChecks {
    var findings: [DoctorFinding] = []
    var facts: [String: JSONValue] = [:]

    mutating func library() -> SupportedDeviceList? {
        let version = SystemFacts.libfprintVersion()
        facts["libfprintVersion"] = version.map(JSONValue.string) ?? .null
        findings.append(DoctorFinding(level: version == nil ? .note : .ok, topic: "libfprint",
                                      message: version.map { "version \($0)" } ?? "the installed version could not be found out"))
        do {
            let list = try SupportedDeviceList.load()
            facts["supportedIds"] = .int(list.supported.count)
            findings.append(DoctorFinding(level: .ok, topic: "libfprint",
                                          message: "supports \(list.supported.count) USB ids (\(list.path))"))
            return list
        } catch {
            findings.append(DoctorFinding(level: .problem, topic: "libfprint", message: "\(error)",
                                          fix: "sudo apt-get install libfprint-2-2"))
            return nil
        }
    }

    /// Fingerprint readers on the USB bus, whether libfprint drives them and whether this user may open them.
    mutating func bus(_ list: SupportedDeviceList?, rulesInstalled: Bool) {
        let readers = USBBus.devices().compactMap { device -> (USBDevice, String?)? in
            guard let list else { return nil }
            if let driver = list.driver(for: device.id) { return (device, driver) }
            return list.isKnownUnsupported(device.id) ? (device, nil) : nil
        }
        facts["usbReaders"] = .array(readers.map { device, driver in
            ["id": .string(device.id.description), "devnode": .string(device.devnode),
             "product": device.product.map(JSONValue.string) ?? .null,
             "supported": .bool(driver != nil), "driver": driver.map(JSONValue.string) ?? .null,
             "accessible": .bool(device.accessible)]
        })
        if readers.isEmpty {
            findings.append(DoctorFinding(level: .note, topic: "usb",
                                          message: "no fingerprint reader libfprint knows is on the USB bus",
                                          fix: "plug one in; without hardware use --reader fake or libfprint's virtual readers"))
        }
        for (device, driver) in readers {
            let name = "\(device.id) \(device.product ?? "") at \(device.devnode)"
            guard let driver else {
                findings.append(DoctorFinding(level: .problem, topic: "usb",
                                              message: "\(name) is a reader libfprint knows but does not support",
                                              fix: "no driver exists for it yet; check libfprint's newer releases"))
                continue
            }
            if device.accessible {
                findings.append(DoctorFinding(level: .ok, topic: "usb", message: "\(name) (driver \(driver)) can be opened"))
            } else {
                findings.append(DoctorFinding(
                    level: .problem, topic: "usb", message: "\(name) (driver \(driver)) cannot be opened by \(SystemFacts.userName())",
                    fix: rulesInstalled
                        ? "log out and in again (or re-plug the reader), or join the group: sudo usermod -aG \(UdevRules.defaultGroup) \(SystemFacts.userName())"
                        : "install the udev rules: sudo make install (then re-plug the reader)"))
            }
        }
    }

    mutating func rules(_ list: SupportedDeviceList?) -> Bool {
        guard let path = SystemFacts.installedRules() else {
            facts["udevRules"] = ["installed": false]
            findings.append(DoctorFinding(level: .note, topic: "udev", message: "the fpbridge udev rules are not installed, "
                                          + "so only root can open a USB reader",
                                          fix: "sudo make install (installs udev/\(UdevRules.fileName) and reloads udev)"))
            return false
        }
        // Every id the installed libfprint supports needs a rule; more is fine (the packages carry
        // the rules of Debian 13's newer libfprint on Debian 12 too).
        let installed = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let ruled = UdevRules.ruledIDs(installed)
        let missing = list?.supported.filter { !ruled.contains($0.id) } ?? []
        facts["udevRules"] = ["installed": true, "path": .string(path), "upToDate": .bool(missing.isEmpty),
                              "missingIds": .array(missing.map { .string($0.id.description) })]
        findings.append(missing.isEmpty
            ? DoctorFinding(level: .ok, topic: "udev", message: "rules installed at \(path)")
            : DoctorFinding(level: .note, topic: "udev", message: "rules at \(path) lack \(missing.count) id(s) the installed libfprint supports "
                                + "(\(missing.prefix(5).map(\.id.description).joined(separator: ", "))\(missing.count > 5 ? ", …" : ""))",
                            fix: "scripts/generate-udev-rules.sh && sudo make install"))
        return true
    }

    mutating func group() {
        let name = UdevRules.defaultGroup
        let membership = SystemFacts.groupMembership(name)
        facts["group"] = ["name": .string(name), "exists": .bool(membership.exists), "member": .bool(membership.inProcess)]
        if !membership.exists {
            findings.append(DoctorFinding(level: .note, topic: "group", message: "the group '\(name)' does not exist",
                                          fix: "sudo make install creates it; members may open readers without a seat"))
        } else if membership.inProcess {
            findings.append(DoctorFinding(level: .ok, topic: "group", message: "\(SystemFacts.userName()) is in '\(name)'"))
        } else {
            findings.append(DoctorFinding(level: .note, topic: "group",
                                          message: "\(SystemFacts.userName()) is not in '\(name)'"
                                              + (membership.listed ? " in this session (log in again)" : ""),
                                          fix: "sudo usermod -aG \(name) \(SystemFacts.userName()); the seat user has access anyway"))
        }
    }

    mutating func virtualReaders() {
        let variables = SystemFacts.virtualReaderVariables()
        facts["environment"] = .object(Dictionary(uniqueKeysWithValues: variables.map { ($0.0, JSONValue.string($0.1)) }))
        for (name, value) in variables {
            findings.append(DoctorFinding(level: .note, topic: "environment", message: "\(name)=\(value) is set"
                                          + (name.hasPrefix("FP_VIRTUAL") ? ": libfprint shows a virtual reader" : "")))
        }
    }

    /// Whether a correct password reaches the line that lifts the lockout (``PamStack``).
    mutating func pamStack(_ path: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            facts["pamStack"] = ["path": .string(path), "read": false]
            findings.append(DoctorFinding(level: .note, topic: "pam", message: "\(path) cannot be read, so the login stack was not checked"))
            return
        }
        let stack = PamStack(String(decoding: data, as: UTF8.self), path: path)
        let skipping = stack.linesThatSkipTheRecovery
        facts["pamStack"] = ["path": .string(path), "read": true, "passwordLiftsLockout": .bool(stack.passwordProved != nil && skipping.isEmpty),
                             "skippingLines": .array(skipping.map { JSONValue.int($0.number) })]
        guard let recovery = stack.passwordProved else {
            if stack.asksFinger {
                findings.append(DoctorFinding(level: .note, topic: "pam", message: "\(path) asks the finger, but a correct password does not lift fpbridge's lockout",
                                              fix: "sudo pam-auth-update --enable fpbridge-password"))
            }
            return
        }
        guard skipping.isEmpty else {
            let named = skipping.map { ($0.source == path ? "" : $0.source + " ") + "line \($0.number) '\($0.text)'" }.joined(separator: ", ")
            findings.append(DoctorFinding(
                level: .problem, topic: "pam",
                message: "\(path): \(named) ends the stack on success before line \(recovery.number) (\(recovery.text)), "
                    + "so a correct password no longer lifts fpbridge's lockout",
                fix: "move that line below pam_fpbridge.so password-proved; for pam_faillock.so authsucc, 'optional' in place of "
                    + "'sufficient' also works (it still clears faillock's count; docs/desktop.md, \"pam_faillock\")"))
            return
        }
        findings.append(DoctorFinding(level: .ok, topic: "pam", message: "\(path): a correct password reaches line \(recovery.number), which lifts fpbridge's lockout"))
    }

    /// The readers libfprint itself lists, with their temperature.
    mutating func libfprintReaders() async {
        var listed: [JSONValue] = []
        for reader in await LibfprintReader.all() {
            let info = await reader.info
            listed.append(ReadersCommand.json(info))
            let message = "\(info.identity) \(info.name) is \(info.temperature.rawValue)"
            findings.append(info.temperature == .hot
                ? DoctorFinding(level: .problem, topic: "thermal", message: message + ": libfprint refuses to scan until it cools",
                                fix: "leave it idle for about \(Int(ReaderTemperature.coolingTime / 60) + 1) minutes")
                : DoctorFinding(level: .ok, topic: "thermal", message: message))
        }
        facts["readers"] = .array(listed)
        if listed.isEmpty {
            findings.append(DoctorFinding(level: .note, topic: "thermal", message: "libfprint lists no reader, so there is no temperature to report"))
        }
        if SystemFacts.fprintdRunning() {
            findings.append(DoctorFinding(level: .note, topic: "fprintd", message: "fprintd is running and may hold a reader open",
                                          fix: "if a reader is busy, stop it: sudo systemctl stop fprintd"))
        }
    }
}
