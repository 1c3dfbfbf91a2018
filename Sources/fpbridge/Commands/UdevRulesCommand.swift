import ArgumentParser
import FPAuthentication
import FPReaders
import FPJSON
import FoundationEssentials
import Glibc

struct UdevRulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "udev-rules",
        abstract: "Print udev rules giving normal users access to every reader libfprint supports.",
        discussion: """
        The rules are made from libfprint's own list of supported USB ids (its installed \
        60-autosuspend-libfprint-2.hwdb). The user at the seat gets access through TAG+="uaccess"; \
        members of the group get it everywhere (kiosks, services). scripts/generate-udev-rules.sh \
        writes them to udev/\(UdevRules.fileName); 'make install' installs them.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp("libfprint's hwdb file (default: the installed one).", valueName: "path"))
    var hwdb: String?

    @Option(help: ArgumentHelp("Ids a newer libfprint supports, one 'vvvv:pppp driver' a line, given rules too "
                               + "(udev/libfprint-newer-ids.txt: Debian 13's, for packages built on Debian 12).",
                               valueName: "path"))
    var newer: String?

    @Option(help: ArgumentHelp("The group given access.", valueName: "name"))
    var group = UdevRules.defaultGroup

    func validate() throws {
        guard UdevRules.isValidGroupName(group) else {
            throw ValidationError("'\(group)' is not a valid group name")
        }
    }

    func run() async throws {
        var list: SupportedDeviceList
        do { list = try SupportedDeviceList.load(path: hwdb) } catch { throw AuthError(error) }
        if let newer {
            guard let data = FileManager.default.contents(atPath: newer) else {
                throw AuthError(.invalidInput, "--newer \(newer): cannot read it")
            }
            do {
                list = list.adding(try SupportedDeviceList.parseNewerIDs(String(decoding: data, as: UTF8.self), path: newer), from: newer)
            } catch { throw AuthError(error) }
        }
        let rules = UdevRules.generate(from: list, group: group)
        options.console.success(String(rules.dropLast()),
                                ["rules": .string(rules), "source": .string(list.path),
                                 "supportedIds": .int(list.supported.count), "unsupportedIds": .int(list.unsupported.count)])
    }
}
