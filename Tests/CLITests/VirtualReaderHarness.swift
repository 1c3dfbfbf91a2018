import Foundation
import Synchronization
import Testing
import TestSupport

/// Runs `fpbridge` against one of libfprint's virtual readers and plays the finger for it.
protocol VirtualReaderHarness: Sendable {
    var directory: TemporaryDirectory { get }
}

extension VirtualReaderHarness {
    /// `enroll` is run as a user runs it: with the user's passcode (2468, set first when missing).
    func run(_ driver: String, socket: String, _ arguments: [String], user: String = "alice", input: String = "",
             while commands: [String] = [], images: [String] = [],
             environment extra: [String: String] = [:]) async throws -> CommandResult {
        var arguments = arguments, input = input
        // Enrolling checks the passcode (scrypt) before the first scan: frames sent sooner
        // would queue up and reach virtual_image back to back, which it cannot take.
        let lead: TimeInterval = arguments.first == "enroll" ? 2 : 0.3
        if arguments.first == "enroll" {
            (arguments, input) = try await PasscodeFirst.enroll(arguments, state: directory.file("state"), user: user)
        }
        let variable = ["virtual_device": "FP_VIRTUAL_DEVICE", "virtual_device_storage": "FP_VIRTUAL_DEVICE_STORAGE",
                        "virtual_image": "FP_VIRTUAL_IMAGE"][driver]!
        let environment = [variable: socket, "FP_DRIVERS_WHITELIST": driver, "FP_DRIVERS_ALLOWLIST": driver]
            .merging(extra) { _, new in new }
        let state = directory.file("state")
        // An enrollment on virtual_image: each frame once the reader waits for it (a frame sent
        // sooner is lost, and the enrollment times out; CI lost them at the fixed pace).
        if driver == "virtual_image", arguments.first == "enroll", let image = images.first, images.allSatisfy({ $0 == image }) {
            return try await VirtualReaderDriver.playEnrollment(socket, image: image, scans: images.count) { [arguments, input] watcher in
                try await Fpbridge.run(["--json", "--reader", "libfprint:\(driver)", "--state-dir", state, "--user", user] + arguments,
                                       environment: environment, input: input, timeout: 60, onStderr: watcher)
            }
        }
        // A scan sent as the previous one ends reaches virtual_device inside the ending
        // operation (libfprint reports twice and the scan is lost), so beyond an enrollment,
        // which takes its scans in one operation, each scan waits for its prompt; so does each
        // image of a command that scans virtual_image more than once (a second touch to confirm).
        let imagesAtPrompts = driver == "virtual_image" && arguments.first != "enroll" && images.count > 1
        let prompts = arguments.first == "enroll" || (driver == "virtual_image" && !imagesAtPrompts) ? nil : PromptSignal(Bench.scanPrompt)
        // An enrollment on virtual_device_storage begins with an identification (fprintd's
        // duplicate check, one scan) and may delete a sensor print before the enrollment's own
        // operation: scans sent during that deletion are refused by the reader and lost, so the
        // rest wait until the check's stage is reported.
        let checkStage = arguments.first == "enroll" && driver == "virtual_device_storage" ? PromptSignal("stage 1/") : nil
        let watchPrompt = prompts?.watcher() ?? checkStage?.watcher()
        var scansSent = 0
        let ended = Ended()
        let command = Task {
            defer { prompts?.finish(); checkStage?.finish(); ended.mark() }
            return try await Fpbridge.run(["--json", "--reader", "libfprint:\(driver)", "--state-dir", state, "--user", user]
                                          + arguments, environment: environment, input: input, timeout: 60,
                                          onStderr: watchPrompt)
        }
        for command in commands {
            if let prompts, command.hasPrefix("SCAN ") || command.hasPrefix("RETRY ") {
                // No prompt: the command ended without scanning again; the scan would stay unused.
                guard await prompts.next(within: 30) else { break }
            }
            if let checkStage, command.hasPrefix("SCAN ") {
                // No stage: the check refused the finger and the command ended.
                if scansSent == 1 { guard await checkStage.next(within: 30) else { break } }
                scansSent += 1
            }
            do {
                try await VirtualReaderDriver.send(socket, [command])
            } catch {
                // The command ended before taking every scan (a refusal, say) and closed the
                // reader: the rest have nobody to go to, and its result says what happened.
                guard ended.value else { throw error }
                break
            }
        }
        if imagesAtPrompts, let prompts {
            for image in images {
                guard await prompts.next(within: 30) else { break }
                try await VirtualReaderDriver.sendImages(socket, [image], lead: lead)
            }
        } else if !images.isEmpty {
            try await VirtualReaderDriver.sendImages(socket, images, lead: lead)
        }
        return try await command.value
    }

    /// Starts `fpbridge ARGS` on a virtual reader and returns once the reader is open
    /// (its socket answers), with the running command to await.
    func started(_ driver: String, socket: String, _ arguments: [String]) async throws -> (Task<CommandResult, any Error>, PIDBox) {
        let variable = driver == "virtual_image" ? "FP_VIRTUAL_IMAGE" : "FP_VIRTUAL_DEVICE"
        let pid = PIDBox()
        let state = directory.file("state")
        let command = Task {
            try await Fpbridge.run(["--json", "--reader", "libfprint:\(driver)", "--state-dir", state, "--user", "alice"] + arguments,
                                   environment: [variable: socket, "FP_DRIVERS_WHITELIST": driver], timeout: 60,
                                   onStart: { pid.set($0) })
        }
        try await VirtualReaderDriver.waitForListener(socket)
        // Real time: virtual_device listens before the CLI has opened it and armed its scan, and nothing says when it has; a SCAN sent sooner is lost (and the test fails, never passes).
        try await Task.sleep(for: .milliseconds(300))
        return (command, pid)
    }

    /// Enrolls alice's right index on `driver`, playing the finger for it.
    func enrollRightIndex(_ driver: String, socket: String) async throws {
        let enroll = driver == "virtual_image"
            ? try await run(driver, socket: socket, ["enroll", "--finger", "right-index"],
                            images: Array(repeating: SharedData.print("whorl"), count: 5))
            : try await run(driver, socket: socket, ["enroll", "--finger", "right-index"],
                            while: Array(repeating: "SCAN p1", count: 5))
        #expect(enroll.status == 0, "\(enroll.stderr)")
    }
}

/// Whether the command under test has ended, read by the loop that plays its scans.
private final class Ended: Sendable {
    private let flag = Mutex(false)
    var value: Bool { flag.withLock { $0 } }
    func mark() { flag.withLock { $0 = true } }
}
