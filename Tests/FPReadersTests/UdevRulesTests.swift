import FPReaders
import Foundation
import Testing

/// The committed udev rules against the installed libfprint's own device list.
struct UdevRulesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let rulesPath = repository + "/udev/" + UdevRules.fileName

    func committedRules() throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.rulesPath)), as: UTF8.self)
    }

    /// `ATTR{idVendor}=="04f3", ATTR{idProduct}=="0c26", …` → the id and the rest of the rule.
    func ruleIDs(_ rules: String) -> [USBDeviceID: String] {
        var found: [USBDeviceID: String] = [:]
        for line in rules.split(separator: "\n") where line.hasPrefix("ATTR{idVendor}==\"") {
            let vendor = line.dropFirst("ATTR{idVendor}==\"".count).prefix(4)
            guard let range = line.range(of: "ATTR{idProduct}==\"") else { continue }
            let product = line[range.upperBound...].prefix(4)
            if let id = USBDeviceID("\(vendor):\(product)") { found[id] = String(line) }
        }
        return found
    }

    @Test func everySupportedIdOfTheInstalledLibfprintHasARule() throws {
        let list = try SupportedDeviceList.load()
        #expect(list.supported.count >= 100, "libfprint's list looks truncated: \(list.supported.count) ids")
        let rules = ruleIDs(try committedRules())
        for entry in list.supported {
            let rule = rules[entry.id]
            #expect(rule?.contains("TAG+=\"uaccess\"") == true, "\(entry.id) (\(entry.driver)) has no uaccess rule")
            #expect(rule?.contains("GROUP=\"\(UdevRules.defaultGroup)\"") == true, "\(entry.id) has no group rule")
        }
        let supported = Set(list.supported.map(\.id)).union(try newerIDs().map(\.id))
        for id in list.unsupported where !supported.contains(id) {
            #expect(rules[id] == nil, "\(id) is known unsupported and must get no rule")
        }
    }

    func newerIDs() throws -> [SupportedDeviceList.Entry] {
        let path = Self.repository + "/udev/libfprint-newer-ids.txt"
        return try SupportedDeviceList.parseNewerIDs(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self), path: path)
    }

    /// Issue 51: the packages are built on Debian 12 and installed on Debian 13 too, whose libfprint
    /// drives readers Debian 12's does not; fpbridged opens a reader only through the rule's group.
    @Test func theIDsOnlyDebian13sLibfprintSupportsHaveRulesToo() throws {
        let newer = try newerIDs()
        #expect(newer.count >= 20, "udev/libfprint-newer-ids.txt looks truncated: \(newer.count) ids")
        let rules = ruleIDs(try committedRules())
        for entry in newer {
            #expect(rules[entry.id]?.contains("GROUP=\"\(UdevRules.defaultGroup)\"") == true, "\(entry.id) (\(entry.driver), Debian 13) has no rule")
        }
        #expect(UdevRules.ruledIDs(try committedRules()) == Set(rules.keys), "ruledIDs reads what the test reads")
    }

    @Test func aMalformedNewerIDListIsNamedByLine() {
        #expect(throws: ReaderError.self) { try SupportedDeviceList.parseNewerIDs("# ok\n2541:0236 focaltech_moc\n2541-0237 focaltech\n", path: "x") }
        do {
            _ = try SupportedDeviceList.parseNewerIDs("2541:0236 focaltech_moc\nnonsense\n", path: "ids.txt")
        } catch {
            #expect("\(error)".contains("ids.txt:2"), "\(error)")
        }
    }

    @Test func theCommittedRulesAreWhatTheGeneratorMakesNow() throws {
        let generated = UdevRules.generate(from: try SupportedDeviceList.load().adding(try newerIDs(), from: "udev/libfprint-newer-ids.txt"))
        let meaningful = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("#") } }
        #expect(meaningful(generated) == meaningful(try committedRules()),
                "udev/\(UdevRules.fileName) is stale: run scripts/generate-udev-rules.sh")
    }

    @Test func theRulesParse() throws {
        let text = try committedRules()
        let keys: Set<String> = ["ACTION", "SUBSYSTEM", "ENV", "ATTR", "TAG", "GROUP", "MODE", "GOTO", "LABEL"]
        let pattern = #"^([A-Z]+)(\{[A-Za-z_]+\})?(==|!=|\+=|=)"([^"]*)"$"#
        var gotos = Set<String>(), labels = Set<String>()
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.isEmpty && !line.hasPrefix("#") {
            for assignment in line.components(separatedBy: ", ") {
                let match = assignment.range(of: pattern, options: .regularExpression)
                #expect(match != nil, "line \(number + 1): cannot parse '\(assignment)'")
                let key = String(assignment.prefix { $0.isUppercase })
                #expect(keys.contains(key), "line \(number + 1): unexpected key \(key)")
                let value = assignment.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
                if key == "GOTO" { gotos.insert(value) }
                if key == "LABEL" { labels.insert(value) }
                if key == "MODE" { #expect(value == "0660") }
            }
        }
        #expect(gotos == labels && !labels.isEmpty, "every GOTO needs its LABEL")
        // systemd 254 and later can check the file itself.
        if let udevadm = ["/usr/bin/udevadm", "/bin/udevadm"].first(where: FileManager.default.isExecutableFile(atPath:)),
           Self.hasVerify(udevadm) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: udevadm)
            process.arguments = ["verify", Self.rulesPath]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "udevadm verify rejects \(Self.rulesPath)")
        }
    }

    /// `udevadm verify` appeared in systemd 254; older ones reject the verb.
    static func hasVerify(_ udevadm: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: udevadm)
        process.arguments = ["verify", "--help"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test(arguments: ["fpbridge", "_kiosk", "plugdev", "a", "fp-users_2", String(repeating: "g", count: 32)])
    func groupNamesUseraddAcceptsAreValid(_ name: String) {
        #expect(UdevRules.isValidGroupName(name))
    }

    @Test(arguments: ["", "Fpbridge", "2fp", "-fp", "fp users", "fp\"", "fp\n", "fpé", "fp.users", "fp$",
                      String(repeating: "g", count: 33)])
    func otherGroupNamesAreRefused(_ name: String) {
        #expect(!UdevRules.isValidGroupName(name))
    }

    @Test func aMalformedHwdbIsNamedByLine() {
        #expect {
            try SupportedDeviceList.parse("# Supported by libfprint driver x\nusb:v08FFpZZZZ*\n", path: "h.hwdb")
        } throws: { error in
            "\(error)".contains("h.hwdb:2")
        }
        let list = try? SupportedDeviceList.parse(
            "# Supported by libfprint driver elan\nusb:v04F3p0C26*\n ID_AUTOSUSPEND=1\n\n# Known unsupported devices\nusb:v04F3p0C00*\n",
            path: "h.hwdb")
        #expect(list?.driver(for: USBDeviceID("04f3:0c26")!) == "elan")
        #expect(list?.isKnownUnsupported(USBDeviceID("04f3:0c00")!) == true)
    }

    @Test func theBusIsReadFromSysfs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fpbridge-sysfs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let device = root + "/1-4"
        try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
        for (name, value) in [("idVendor", "04f3\n"), ("idProduct", "0c26\n"), ("busnum", "1\n"), ("devnum", "94\n"),
                              ("product", "ELAN:Fingerprint\n")] {
            try Data(value.utf8).write(to: URL(fileURLWithPath: device + "/" + name))
        }
        try FileManager.default.createDirectory(atPath: root + "/usb1-port1", withIntermediateDirectories: true)
        let devices = USBBus.devices(sysfs: root)
        #expect(devices.map(\.id) == [USBDeviceID("04f3:0c26")!])
        #expect(devices.first?.devnode == "/dev/bus/usb/001/094" && devices.first?.product == "ELAN:Fingerprint")
        #expect(devices.first?.accessible == false, "a node that does not exist cannot be opened")
    }
}
