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

    @Option(help: ArgumentHelp("The group given access.", valueName: "name"))
    var group = UdevRules.defaultGroup

    func validate() throws {
        guard UdevRules.isValidGroupName(group) else {
            throw ValidationError("'\(group)' is not a valid group name")
        }
    }

    func run() async throws {
        let list: SupportedDeviceList
        do { list = try SupportedDeviceList.load(path: hwdb) } catch { throw AuthError(error) }
        let rules = UdevRules.generate(from: list, group: group)
        options.console.success(String(rules.dropLast()),
                                ["rules": .string(rules), "source": .string(list.path),
                                 "supportedIds": .int(list.supported.count), "unsupportedIds": .int(list.unsupported.count)])
    }
}
