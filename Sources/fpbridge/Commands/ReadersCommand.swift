import FPLocalAPI
import ArgumentParser
import FPReaders

struct ReadersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers", abstract: "List the readers the selected backend sees.",
        discussion: """
        With --watch, keeps running and reports each reader as it is plugged in or pulled out, \
        one line per change (one JSON object per line with --json), until Ctrl-C or --for SECONDS.
        """)

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Keep reporting readers as they come and go.")
    var watch = false

    @Option(name: .customLong("for"), help: ArgumentHelp("With --watch, stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    func validate() throws {
        if duration != nil && !watch { throw ValidationError("--for only applies to --watch") }
        if let duration, !(duration > 0 && duration <= AuthConfiguration.maximumSeconds) {
            throw ValidationError("--for needs a number of seconds more than 0 and at most \(Int(AuthConfiguration.maximumSeconds))")
        }
    }

    func run() async throws {
        if watch { return try await ReaderWatch.run(options, duration: duration) }
        let readers: [any FingerprintReader]
        do { readers = try await options.selection().candidates() } catch { throw AuthError(error) }
        var infos: [ReaderInfo] = []
        for reader in readers { infos.append(await reader.info) }
        let text = infos.isEmpty
            ? "No readers found. Try --reader fake, or see docs/hardware.md."
            : infos.map { info in
                "\(info.identity.driver)\t\(info.identity.deviceID)\t\(info.name)\n"
                    + "\tscan type: \(info.scanType.rawValue), enroll stages: \(info.enrollmentStages), "
                    + "features: \(info.features.names.joined(separator: ","))"
            }.joined(separator: "\n")
        options.console.success(text, ["readers": .array(infos.map(Self.json))])
    }

    static func json(_ info: ReaderInfo) -> JSONValue {
        [
            "driver": .string(info.identity.driver), "deviceId": .string(info.identity.deviceID),
            "name": .string(info.name), "scanType": .string(info.scanType.rawValue),
            "enrollStages": .int(info.enrollmentStages), "features": .array(info.features.names.map(JSONValue.string)),
            "temperature": .string(info.temperature.rawValue),
        ]
    }
}

import FPAuthentication
