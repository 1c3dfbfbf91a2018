import Foundation
import Testing
import TestSupport

/// Issue 37 §2: a finger left on an image reader is answered as soon as libfprint decides the
/// match (its match callback), not when the finger is lifted, through every door: the command
/// line, the socket and the fprintd face. And a finger that is on the sensor but never scanned
/// still runs into the scan timeout. On `virtual_image` with the finger reported by hand.
@Suite(.serialized, .enabled(if: SharedData.available, "needs ../shared/prints"))
struct FingerKeptDownTests: VirtualReaderHarness {
    let directory = TemporaryDirectory()

    /// The command's result if it ends within `seconds` (a deadline, not a measurement: the
    /// answer comes in well under a second, and without the match callback it never comes
    /// while the finger stays down); nil otherwise.
    func result(of command: Task<CommandResult, any Error>, within seconds: Double) async throws -> CommandResult? {
        try await withThrowingTaskGroup(of: CommandResult?.self) { group in
            group.addTask { try await command.value }
            group.addTask {
                // The time limit itself (above): real time is what the answer is held to.
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    @Test func theCommandLineAnswersAMatchWhileTheFingerIsStillDown() async throws {
        let socket = TemporaryDirectory.socketPath()
        let whorl = SharedData.print("whorl")
        try await enrollRightIndex("virtual_image", socket: socket)
        let (verify, _) = try await started("virtual_image", socket: socket, ["verify"])
        let finger = try await VirtualReaderDriver.holdFinger(socket, image: whorl, lead: 0)
        let sent = Date()
        let answer = try await result(of: verify, within: 20)
        print("verify answered \(Date().timeIntervalSince(sent)) s after the image, the finger still down")
        try await finger.lift()
        let answered = try #require(answer, "no answer while the finger stayed down")
        #expect(answered.status == 0 && answered.json["finger"] as? String == "right-index", "\(answered.stdout)\(answered.stderr)")
        // The reader is usable again at once: the next scan waits for the lift, then reads.
        #expect(try await run("virtual_image", socket: socket, ["verify"], images: [whorl]).status == 0)
    }

    @Test func theScanTimeoutStillAppliesToAFingerThatIsDownButNeverScanned() async throws {
        let socket = TemporaryDirectory.socketPath()
        try await enrollRightIndex("virtual_image", socket: socket)
        try Data(#"{"scanTimeoutSeconds": 2}"#.utf8).write(to: URL(fileURLWithPath: directory.file("state") + "/config.json"))
        let (verify, _) = try await started("virtual_image", socket: socket, ["verify"])
        let finger = try await VirtualReaderDriver.holdFinger(socket, image: nil, lead: 0)
        let answer = try await result(of: verify, within: 20)
        try await finger.lift()
        let answered = try #require(answer, "the finger on the sensor stopped the scan timeout")
        #expect(answered.errorCode == -2003, "\(answered.stdout)\(answered.stderr)")
    }

    @Test func theSocketAnswersAMatchWhileTheFingerIsStillDown() async throws {
        let socket = TemporaryDirectory.socketPath()
        let whorl = SharedData.print("whorl")
        let service = try await ServiceProcess(environment: ["FP_VIRTUAL_IMAGE": socket, "FP_DRIVERS_WHITELIST": "virtual_image"],
                                               arguments: ["--reader", "libfprint:virtual_image", "--reader-idle-seconds", "60"])
        let client = service.clientEnvironment
        #expect(try await Fpbridge.run(["passcode", "set", "--passcode-stdin"], environment: client, input: "2468\n").status == 0)
        let enroll = Task {
            try await Fpbridge.run(["--json", "enroll", "--finger", "right-index", "--passcode-stdin"], environment: client, input: "2468\n")
        }
        try await VirtualReaderDriver.sendImages(socket, Array(repeating: whorl, count: 5), lead: 1)
        let enrolled = try await enroll.value
        #expect(enrolled.status == 0, "\(enrolled.stdout)\(enrolled.stderr)")
        // The reader stays open between the two (idle close after 60 s): the finger goes down once
        // the verify prompts for it, that is once its scan has started.
        let prompts = PromptSignal(Bench.scanPrompt)
        let watchPrompt = prompts.watcher()
        let verify = Task {
            defer { prompts.finish() }
            return try await Fpbridge.run(["--json", "verify"], environment: client, timeout: 60, onStderr: watchPrompt)
        }
        try #require(await prompts.next(within: 30), "the verify never asked for the finger")
        let finger = try await VirtualReaderDriver.holdFinger(socket, image: whorl, lead: 0)
        let answer = try await result(of: verify, within: 20)
        try await finger.lift()
        let answered = try #require(answer, "no answer while the finger stayed down")
        #expect(answered.status == 0 && answered.json["finger"] as? String == "right-index", "\(answered.stdout)\(answered.stderr)")
    }

    @Test func theFprintdFaceSendsVerifyMatchWhileTheFingerIsStillDown() async throws {
        let socket = TemporaryDirectory.socketPath()
        let whorl = SharedData.print("whorl")
        let bus = try await FprintdBus.virtualImage(socket)
        try await bus.enrollOnVirtualImage(socket, image: whorl)

        let verify = try bus.startClient(["call:Claim:root", "call:VerifyStart:any", "wait:VerifyStatus",
                                          "call:VerifyStop", "call:Release"])
        #expect(try await verify.waitFor("VerifyStart ok"))
        let finger = try await VirtualReaderDriver.holdFinger(socket, image: whorl, lead: 0.5)
        let answered = try await verify.waitFor("signal VerifyStatus", timeout: 20)
        let output = verify.output
        try await finger.lift()
        _ = try await verify.finish()
        #expect(answered, "no VerifyStatus while the finger stayed down: \(output)")
        #expect(output.contains("signal VerifyStatus verify-match True"), "\(output)")
        let present = output.range(of: "changed finger-present=True")
        let match = output.range(of: "signal VerifyStatus")
        #expect(present != nil && match != nil && present!.lowerBound < match!.lowerBound,
                "finger-present is announced before the answer: \(output)")
    }
}
