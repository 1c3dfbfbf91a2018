import Foundation
import Testing
import TestSupport

/// The libfprint backend against libfprint's own virtual readers, driven from this
/// process over their sockets while `fpbridge` runs as a separate process.
@Suite(.serialized) struct VirtualReaderTests {
    let directory = TemporaryDirectory()

    func run(_ driver: String, socket: String, _ arguments: [String], user: String = "alice", input: String = "",
             while commands: [String] = [], images: [String] = []) async throws -> CommandResult {
        let variable = ["virtual_device": "FP_VIRTUAL_DEVICE", "virtual_device_storage": "FP_VIRTUAL_DEVICE_STORAGE",
                        "virtual_image": "FP_VIRTUAL_IMAGE"][driver]!
        let environment = [variable: socket, "FP_DRIVERS_WHITELIST": driver, "FP_DRIVERS_ALLOWLIST": driver]
        async let result = Fpbridge.run(["--json", "--reader", "libfprint:\(driver)", "--state-dir", directory.file("state"),
                                         "--user", user] + arguments, environment: environment, input: input, timeout: 60)
        if !commands.isEmpty { try await VirtualReaderDriver.send(socket, commands) }
        if !images.isEmpty { try await VirtualReaderDriver.sendImages(socket, images) }
        return try await result
    }

    @Test func virtualDeviceEnrollVerifyAndLockout() async throws {
        let socket = TemporaryDirectory.socketPath()
        let readers = try await run("virtual_device", socket: socket, ["readers"])
        #expect((readers.json["readers"] as? [[String: Any]])?.first?["driver"] as? String == "virtual_device")
        let enroll = try await run("virtual_device", socket: socket, ["enroll", "--finger", "right-index"],
                                   while: ["SCAN p1", "RETRY 1", "SCAN p1", "SCAN p1", "SCAN p1", "SCAN p1"])
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(enroll.stderr.contains("too short"))
        #expect(try await run("virtual_device", socket: socket, ["verify"], while: ["SCAN p1"]).status == 0)
        let miss = try await run("virtual_device", socket: socket, ["verify"], while: ["SCAN p2"])
        #expect(miss.status == 1 && miss.errorCode == -1)
        // The engine's rules on the real library: 3 in one auth, 2 more lock, then no scan at all.
        _ = try await run("virtual_device", socket: socket, ["passcode", "set", "--passcode-stdin"], input: "2468\n")
        let three = try await run("virtual_device", socket: socket, ["auth"], while: ["SCAN x1", "SCAN x2", "SCAN x3"])
        #expect(three.errorCode == -1, "\(three.stderr)")
        let lock = try await run("virtual_device", socket: socket, ["auth"], while: ["SCAN x4", "SCAN x5"])
        // The first miss (verify above) already counted: lockout comes at the 5th in a row.
        #expect(lock.errorCode == -8, "\(lock.stderr)")
        let locked = try await run("virtual_device", socket: socket, ["auth", "--policy", "biometrics"])
        #expect(locked.errorCode == -8)
        let owner = try await run("virtual_device", socket: socket, ["auth", "--policy", "device-owner", "--passcode-stdin"],
                                  input: "2468\n")
        #expect(owner.status == 0 && owner.json["method"] as? String == "passcode")
        #expect(try await run("virtual_device", socket: socket, ["auth"], while: ["SCAN p1"]).status == 0)
    }

    @Test func virtualDeviceUnplugDuringVerifyIsDisconnected() async throws {
        let socket = TemporaryDirectory.socketPath()
        _ = try await run("virtual_device", socket: socket, ["enroll", "--finger", "right-index"],
                          while: Array(repeating: "SCAN p1", count: 5))
        let start = Date()
        let result = try await run("virtual_device", socket: socket, ["verify"], while: ["UNPLUG "])
        #expect(result.errorCode == -13 && result.status == 3, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 10)
        #expect((try await run("virtual_device", socket: socket, ["list"]).json["prints"] as? [Any])?.count == 1)
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"))
    func virtualImageMatchesWithTheRealMatcher() async throws {
        let socket = TemporaryDirectory.socketPath()
        let whorl = SharedData.print("whorl")
        let enroll = try await run("virtual_image", socket: socket, ["enroll", "--finger", "right-thumb"],
                                   images: Array(repeating: whorl, count: 5))
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(try await run("virtual_image", socket: socket, ["verify"], images: [whorl]).status == 0)
        for other in ["arch", "tented_arch"] {
            let result = try await run("virtual_image", socket: socket, ["verify"], images: [SharedData.print(other)])
            #expect(result.errorCode == -1, "\(other): \(result.stderr)")
        }
        #expect(try await run("virtual_image", socket: socket, ["identify"], images: [whorl]).json["user"] as? String == "alice")
    }

    @Test func sharedDataIsPresentUnderCI() {
        #expect(!SharedData.requiredButMissing, "CI=true but ../shared (prints, replays) is missing")
    }
}
