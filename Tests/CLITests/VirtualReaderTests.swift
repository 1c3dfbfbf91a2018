import FPImaging
import Foundation
import Testing
import TestSupport

/// The libfprint backend against libfprint's own virtual readers, driven from this
/// process over their sockets while `fpbridge` runs as a separate process.
@Suite(.serialized) struct VirtualReaderTests: VirtualReaderHarness {
    let directory = TemporaryDirectory()

    @Test func virtualDeviceEnrollVerifyAndLockout() async throws {
        let socket = TemporaryDirectory.socketPath()
        let readers = try await run("virtual_device", socket: socket, ["readers"])
        #expect((readers.json["readers"] as? [[String: Any]])?.first?["driver"] as? String == "virtual_device")
        let enroll = try await run("virtual_device", socket: socket, ["enroll", "--finger", "right-index"],
                                   while: ["SCAN p1", "RETRY 1", "SCAN p1", "SCAN p1", "SCAN p1", "SCAN p1"])
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(enroll.stderr.contains("too short"))
        let verified = try await run("virtual_device", socket: socket, ["verify"], while: ["SCAN p1"])
        #expect(verified.status == 0)
        // Issue 25: libfprint's finger-status tells the front end the finger is down and matching runs.
        #expect(verified.stderr.contains("Reading…"), "\(verified.stderr)")
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

    @Test func virtualDeviceRemovedDuringVerifyIsDisconnectedWithinASecond() async throws {
        try await readerRemovedDuringVerifyIsDisconnectedWithinASecond(driver: "virtual_device")
    }

    /// virtual_image plays ../shared/prints; a clone without it reports this test as skipped,
    /// never as passed (in CI, `SharedData.requiredButMissing` fails the run instead).
    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"))
    func virtualImageRemovedDuringVerifyIsDisconnectedWithinASecond() async throws {
        try await readerRemovedDuringVerifyIsDisconnectedWithinASecond(driver: "virtual_image")
    }

    func readerRemovedDuringVerifyIsDisconnectedWithinASecond(driver: String) async throws {
        let socket = TemporaryDirectory.socketPath()
        try await enrollRightIndex(driver, socket: socket)
        let (verify, _) = try await started(driver, socket: socket, ["verify"])
        let sent = Date()
        if driver == "virtual_image" {
            try await VirtualReaderDriver.unplugImageReader(socket, linger: 0)
        } else {
            try await VirtualReaderDriver.send(socket, ["UNPLUG "])
        }
        let result = try await verify.value
        let took = Date().timeIntervalSince(sent)
        #expect(result.errorCode == -13 && result.status == 3, "\(result.stderr)")
        #expect(took < 1, "\(driver): the removal took \(took) s to end the verify")
        #expect((try await run(driver, socket: socket, ["list"]).json["prints"] as? [Any])?.count == 1)
    }

    @Test func virtualDeviceCancelDuringVerifyEndsAtOnce() async throws {
        let socket = TemporaryDirectory.socketPath()
        try await enrollRightIndex("virtual_device", socket: socket)
        let (verify, pid) = try await started("virtual_device", socket: socket, ["verify"])
        let sent = Date()
        kill(pid.value, SIGINT)
        let result = try await verify.value
        let took = Date().timeIntervalSince(sent)
        #expect(result.errorCode == -2 && result.status == 1, "\(result.stderr)")
        #expect(took < 1, "cancel took \(took) s")
        #expect((try await run("virtual_device", socket: socket, ["list"]).json["prints"] as? [Any])?.count == 1)
    }

    /// The storage reader's sensor memory lasts one process; `INSERT` puts back what an
    /// earlier process enrolled, as a real sensor would have kept it.
    @Test func virtualDeviceStorageIdentifyAndDeleteThroughTheCLI() async throws {
        let socket = TemporaryDirectory.socketPath()
        // Six scans: the identification that checks for a duplicate, then the reader's five.
        let enroll = try await run("virtual_device_storage", socket: socket, ["enroll", "--finger", "left-thumb"],
                                   while: Array(repeating: "SCAN s1", count: 6))
        #expect(enroll.status == 0 && enroll.json["storedOnDevice"] as? Bool == true, "\(enroll.stderr)")
        let bob = try await run("virtual_device_storage", socket: socket, ["enroll", "--finger", "right-index"], user: "bob",
                                while: ["INSERT s1"] + Array(repeating: "SCAN s2", count: 6))
        #expect(bob.status == 0, "\(bob.stderr)")
        let who = try await run("virtual_device_storage", socket: socket, ["identify"], while: ["INSERT s1", "INSERT s2", "SCAN s2"])
        #expect(who.json["user"] as? String == "bob" && who.json["finger"] as? String == "right-index", "\(who.stdout)\(who.stderr)")
        let stranger = try await run("virtual_device_storage", socket: socket, ["identify"], while: ["INSERT s1", "INSERT s2", "SCAN s9"])
        #expect(stranger.errorCode == -1)
        let delete = try await run("virtual_device_storage", socket: socket, ["delete", "--finger", "left-thumb"],
                                   while: ["INSERT s1", "INSERT s2"])
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect((try await run("virtual_device_storage", socket: socket, ["list"]).json["prints"] as? [Any])?.isEmpty == true)
    }

    /// A deletion whose sensor copy the reader refuses to delete (BUSY) deletes the record all
    /// the same (the finger signs nobody in; the copy matches nothing without it) and says
    /// so (a failed exit, with the advice to wipe the sensor's storage); a copy the sensor had
    /// lost already is deleted quietly.
    @Test func aDeletionTheReaderRefusesStillDeletesTheRecordAndSaysSo() async throws {
        let socket = TemporaryDirectory.socketPath()
        for finger in ["left-thumb", "right-thumb"] {
            let enroll = try await run("virtual_device_storage", socket: socket, ["enroll", "--finger", finger],
                                       while: Array(repeating: "SCAN \(finger)", count: 6))
            #expect(enroll.status == 0, "\(enroll.stderr)")
        }
        let refused = try await run("virtual_device_storage", socket: socket, ["delete", "--finger", "left-thumb"],
                                    while: ["INSERT left-thumb", "SLEEP 10", "ERROR 4"])
        #expect(refused.status != 0, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.errorMessage.contains("deleted alice's left-thumb here, but not the reader's own copy (the reader refused"),
                "\(refused.errorMessage)")
        #expect(refused.stderr.contains("fpbridge selftest --steps clear --yes"), "\(refused.stderr)")
        // A new process's virtual_device_storage holds nothing: the right thumb's copy is "lost".
        let lost = try await run("virtual_device_storage", socket: socket, ["delete", "--finger", "right-thumb"])
        #expect(lost.status == 0, "\(lost.stdout)\(lost.stderr)")
        #expect((try await run("virtual_device_storage", socket: socket, ["list"]).json["prints"] as? [Any])?.isEmpty == true)
    }

    /// The sensor already holding a finger under a print no record here knows (enrolled by
    /// other software, or before a re-install): the identification before the enrollment finds
    /// it, deletes it from the sensor and enrolls the finger, as fprintd does; alice's finger
    /// is then on the sensor once. The same finger for bob is refused at its first scan.
    @Test func aFingerTheSensorHoldsUnderAPrintNoRecordKnowsIsEnrolledInItsPlace() async throws {
        let socket = TemporaryDirectory.socketPath()
        let enroll = try await run("virtual_device_storage", socket: socket, ["enroll", "--finger", "left-thumb"],
                                   while: ["INSERT s1"] + Array(repeating: "SCAN s1", count: 6))
        #expect(enroll.status == 0 && enroll.json["storedOnDevice"] as? Bool == true, "\(enroll.stdout)\(enroll.stderr)")
        // One scan: the refusal comes at the first, and the command ends (a second scan would
        // find no reader listening).
        let bob = try await run("virtual_device_storage", socket: socket, ["enroll", "--finger", "right-index"], user: "bob",
                                while: ["INSERT s1", "SCAN s1"])
        #expect(bob.status == 2 && bob.errorCode == -2008, "\(bob.stdout)\(bob.stderr)")
        #expect(bob.errorMessage.contains("already enrolled on virtual_device_storage/0 as alice's left-thumb"), "\(bob.errorMessage)")
        #expect((try await run("virtual_device_storage", socket: socket, ["list"], user: "bob").json["prints"] as? [Any])?.isEmpty == true)
    }

    /// The scan timeout is for waiting for a finger: NBIS matching over a large gallery on
    /// virtual_image outlasts a 1 s timeout and still ends in its real answer (it used to
    /// end in timedOut, "no finger was presented", with the finger there).
    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"))
    func matchingALargeGalleryIsNotWaitingForAFinger() async throws {
        let socket = TemporaryDirectory.socketPath()
        let enroll = try await run("virtual_image", socket: socket, ["enroll", "--finger", "right-thumb"],
                                   images: Array(repeating: SharedData.print("whorl"), count: 5))
        #expect(enroll.status == 0, "\(enroll.stderr)")
        let state = directory.file("state")
        let source = state + "/prints/alice/virtual_image/0/right-thumb.json"
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source))) as? [String: Any])
        let fingers = ["left-thumb", "left-index", "left-middle", "left-ring", "left-little",
                       "right-thumb", "right-index", "right-middle", "right-ring", "right-little"]
        for user in 0..<4 {
            let folder = try directory.privateDirectory("state/prints/u\(user)/virtual_image/0")
            for finger in fingers {
                record["user"] = "u\(user)"
                record["finger"] = finger
                try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: "\(folder)/\(finger).json"))
            }
        }
        try Data(#"{"scanTimeoutSeconds": 1}"#.utf8).write(to: URL(fileURLWithPath: state + "/config.json"))
        let start = Date()
        let result = try await run("virtual_image", socket: socket, ["identify"], images: [SharedData.print("arch")])
        let took = Date().timeIntervalSince(start)
        #expect(result.errorCode == -1, "41 prints, no match, \(took) s: \(result.stdout)\(result.stderr)")
        print("identify over 41 virtual_image prints with a 1 s finger timeout: \(took) s")
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

    @Test func readersWatchReportsThePresentReadersAsJSONLinesAndStops() async throws {
        let environment = ["FP_VIRTUAL_DEVICE": TemporaryDirectory.socketPath(), "FP_VIRTUAL_IMAGE": TemporaryDirectory.socketPath()]
        let start = Date()
        let result = try await Fpbridge.run(["--json", "readers", "--watch", "--for", "1"], environment: environment, timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 10)
        let events = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(events.count == 2 && events.allSatisfy { $0["event"] as? String == "present" }, "\(result.stdout)")
        let drivers = Set(events.compactMap { ($0["reader"] as? [String: Any])?["driver"] as? String })
        #expect(drivers == ["virtual_device", "virtual_image"])
        let one = try await Fpbridge.run(["--json", "--reader", "libfprint:virtual_image", "readers", "--watch", "--for", "0.5"],
                                         environment: environment, timeout: 20)
        #expect(one.stdout.split(separator: "\n").count == 1 && one.stdout.contains("virtual_image"), "\(one.stdout)")
    }

    @Test func readersWatchEndsCleanlyOnCtrlC() async throws {
        let pid = PIDBox()
        let watch = Task { try await Fpbridge.run(["readers", "--watch", "--reader", "fake"], timeout: 20, onStart: { pid.set($0) }) }
        // Time for the process to start and take over Ctrl-C (before that, SIGINT would kill it).
        try await Task.sleep(for: .seconds(2))
        kill(pid.value, SIGINT)
        let result = try await watch.value
        #expect(result.status == 0 && result.stdout.contains("present  fake/0"), "\(result.stdout)\(result.stderr)")
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"))
    func captureOnVirtualImageKeepsEveryPixel() async throws {
        let socket = TemporaryDirectory.socketPath()
        let out = directory.file("whorl-captured.png")
        let result = try await run("virtual_image", socket: socket, ["capture", "--out", out], images: [SharedData.print("whorl")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ImageFile.read(out) == ImageFile.read(SharedData.print("whorl")))
        let unsupported = try await run("virtual_device", socket: TemporaryDirectory.socketPath(), ["capture", "--out", out])
        #expect(unsupported.errorCode == -2010 && unsupported.status == 3, "\(unsupported.stdout)")
        let badName = try await run("virtual_image", socket: socket, ["capture", "--out", directory.file("x.jpg")])
        #expect(badName.status == 2 && badName.stdout.contains(".pgm or .png"), "\(badName.stdout)")
    }

    @Test func sharedDataIsPresentUnderCI() {
        #expect(!SharedData.requiredButMissing, "CI=true but ../shared (prints, replays) is missing")
    }
}
