import Foundation
import Synchronization
import Testing
import TestSupport

/// fprintd's D-Bus interface as fpbridged serves it, method by method, with a client of the
/// test's own (`Tests/Helpers/fprintd-client.py`, one bus connection kept across its steps):
/// claims, the errors of each method, polkit's answer, properties and their change signals,
/// a client that vanishes, sleep, and the engine's lockout through `fprintd-verify`.
@Suite(.serialized) struct FprintdInterfaceTests {
    /// Enrolls `finger` of `user` with `fprintd-enroll`, five scans of `print`.
    func enroll(_ bus: FprintdBus, _ finger: String = "right-index-finger", print: String = "p1", user: String = "root") async throws {
        let result = try await bus.enroll(finger, print: print, user: user)
        try #require(result.status == 0 && result.stdout.contains("enroll-completed"), "\(result.stdout)")
    }

    func verify(_ bus: FprintdBus, _ print: String, user: String = "root") async throws -> CommandResult {
        try await bus.withScans(["/usr/bin/fprintd-verify", user], after: "Verify started", scans: [print])
    }

    @Test func fiveWrongFingersLockTheUserAndTheSixthVerifyStartIsRefusedWithoutAScan() async throws {
        let bus = try await FprintdBus()
        #expect(try await bus.service!.request("GET", "/v1/service").json["fprintdBus"] as? String == "serving")
        try await enroll(bus)
        try await enroll(bus, print: "p7", user: "nobody")
        for attempt in 1...5 {
            let wrong = try await verify(bus, "p2")
            #expect(wrong.status == 1 && wrong.stdout.contains("verify-no-match (done)"), "attempt \(attempt): \(wrong.stdout)")
        }
        let status = try await bus.lockout("root")
        #expect(status["lockedOut"] as? Bool == true && status["failures"] as? Int == 5, "\(status)")
        // No finger is sent: a refusal must not wait for one.
        let start = Date()
        let refused = try await bus.run(["/usr/bin/fprintd-verify", "root"], timeout: 20)
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stdout.contains("VerifyStart failed: GDBus.Error:net.reactivated.Fprint.Error.NoEnrolledPrints: "
                                        + "Fingerprint is locked out for root"), "\(refused.stdout)")
        #expect(Date().timeIntervalSince(start) < 10, "refused at once, without a scan")
        // The right finger does not get through either, and the lockout holds across claims.
        let right = try await bus.client(["call:Claim:root", "call:VerifyStart:any", "call:Release"])
        #expect(right.stdout.contains("VerifyStart error net.reactivated.Fprint.Error.NoEnrolledPrints"), "\(right.stdout)")
        #expect(try await bus.lockout("root")["failures"] as? Int == 5, "a refusal counts nothing")
        // Another user is not affected.
        let other = try await verify(bus, "p7", user: "nobody")
        #expect(other.status == 0 && other.stdout.contains("verify-match"), "\(other.stdout)")
    }

    /// Issue 40 §4 on the bus: GNOME Settings enrolling while an identification (a kiosk's) is
    /// armed on the reader hears fprintd's AlreadyInUse, naming the way out, and the
    /// identification keeps the reader and its scan.
    @Test func anEnrollStartWhileAnIdentificationIsArmedIsRefusedAsInUse() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let service = try #require(bus.service)
        let refusal = Mutex<String?>(nil)
        let lines = try await service.stream("/v1/evaluations", body: #"{"operation":"identify","timeoutSeconds":30}"#, timeout: 60) { line, _ in
            guard (line["event"] as? [String: Any])?["kind"] as? String == "presentFinger", refusal.withLock({ $0 }) == nil else { return }
            let client = try await bus.client(["call:Claim:root", "call:EnrollStart:right-index-finger", "call:Release"])
            refusal.withLock { $0 = client.stdout }
            try await bus.scan("p1")
        }
        let stdout = try #require(refusal.withLock { $0 }, "the identification never asked for a finger: \(lines)")
        #expect(stdout.contains("EnrollStart error net.reactivated.Fprint.Error.AlreadyInUse") && stdout.contains("--at-kiosk"), "\(stdout)")
        #expect(lines.last?["ok"] as? Bool == true, "the identification lost its scan: \(lines)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func aSecondClientCannotClaimTheDeviceUntilTheFirstReleasesIt(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let first = try bus.startClient(["call:Claim:root", "sleep:1.5", "call:Release"])
        #expect(try await first.waitFor("Claim ok"))
        let second = try await bus.client(["call:Claim:root", "call:VerifyStart:any", "call:Release"])
        #expect(second.stdout.contains("Claim error net.reactivated.Fprint.Error.AlreadyInUse: Device was already claimed"), "\(second.stdout)")
        #expect(second.stdout.contains("VerifyStart error net.reactivated.Fprint.Error.AlreadyInUse: Device already in use by another user"),
                "\(second.stdout)")
        #expect(second.stdout.contains("Release error net.reactivated.Fprint.Error.AlreadyInUse"), "\(second.stdout)")
        _ = try await first.finish()
        #expect(first.output.contains("Release ok"), "\(first.output)")
        let third = try await bus.client(["call:Claim:root", "call:Release"])
        #expect(third.stdout.split(separator: "\n").filter { !$0.hasPrefix("changed") } == ["Claim ok", "Release ok"], "\(third.stdout)")
    }

    @Test func aClientThatVanishesMidVerifyLosesItsClaimAndNothingIsCounted() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let client = try bus.startClient(["call:Claim:root", "call:VerifyStart:any", "sleep:60"])
        #expect(try await client.waitFor("VerifyStart ok"))
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        client.kill()
        _ = try await client.finish()
        // The service learns of the vanished client from the bus: wait until the device can be
        // claimed again (a condition, not a fixed wait).
        let released = try await eventually(within: 20, every: .milliseconds(50)) {
            try await bus.client(["call:Claim:root", "call:Release"]).stdout.contains("Release ok")
        }
        try #require(released, "the vanished client's claim was never dropped")
        // The verify ended with the client: the reader is closed, as fprintd closes it on a
        // release, so no finger can reach it. (A verify left running would hold it open, and
        // virtual_device would still be listening for the next finger, to count it.)
        #expect(!VirtualReaderDriver.isListening(bus.readerSocket), "a verify still holds the reader")
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "nothing counted")
        // The device is free again, and the reader with it.
        let next = try await verify(bus, "p1")
        #expect(next.status == 0 && next.stdout.contains("verify-match"), "\(next.stdout)")
    }

    @Test func aReleaseRightAfterVerifyStartEndsTheScanAndCountsNothing() async throws {
        let bus = try await FprintdBus()
        let enrolled = try await bus.enroll()
        try #require(enrolled.status == 0, "\(enrolled.stdout)")
        for _ in 1...5 {
            let quick = try await bus.client(["call:Claim:root", "call:VerifyStart:any", "call:Release", "call:Claim:root",
                                              "call:VerifyStart:any", "call:VerifyStop", "call:Release"])
            #expect(quick.stdout.components(separatedBy: "VerifyStart ok").count == 3, "\(quick.stdout)")
            #expect(quick.stdout.components(separatedBy: "Release ok").count == 3, "\(quick.stdout)")
            // Each ended by the client, as fprintd ends it: no match (FprintdFinalStatusTests), never a match.
            #expect(!quick.stdout.contains("verify-match"), "no scan matched: \(quick.stdout)")
        }
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "nothing was counted")
        let next = try await bus.withScans(["/usr/bin/fprintd-verify", "root"], after: "Verify started", scans: ["p1"])
        #expect(next.status == 0 && next.stdout.contains("verify-match"), "the device and the reader are free: \(next.stdout)")
    }

    @Test func aStopSentWithTheStartLeavesNoScanBehind() async throws {
        let bus = try await FprintdBus()
        let enrolled = try await bus.enroll()
        try #require(enrolled.status == 0, "\(enrolled.stdout)")
        for round in 1...10 {
            // VerifyStart and VerifyStop on the wire together: the stop may come before the
            // start has its reader. However they meet, no scan may outlive them.
            let pipelined = try await bus.client(["call:Claim:root", "send:VerifyStart:any", "call:VerifyStop", "sleep:0.3",
                                                  "call:VerifyStop", "call:Release"])
            #expect(pipelined.stdout.contains("Release ok"), "round \(round): \(pipelined.stdout)")
            let next = try await bus.client(["call:Claim:root", "call:VerifyStart:any", "call:VerifyStop", "call:Release"])
            #expect(next.stdout.contains("VerifyStart ok") && next.stdout.contains("VerifyStop ok"),
                    "round \(round): the reader and the device are free at once: \(next.stdout)")
        }
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "nothing was counted")
    }

    /// Two VerifyStops on the wire together (issue 53): one ends the verification, the other is
    /// refused, as fprintd refuses a Stop while one is under way (AlreadyInUse) or after it
    /// (NoActionInProgress). Both used to succeed, in 4 or 5 runs of 5.
    @Test func twoStopsSentTogetherEndTheActionOnce() async throws {
        let bus = try await FprintdBus()
        let enrolled = try await bus.enroll()
        try #require(enrolled.status == 0, "\(enrolled.stdout)")
        for round in 1...5 {
            let twice = try await bus.client(["call:Claim:root", "call:VerifyStart:any", "send:VerifyStop", "send:VerifyStop",
                                              "sleep:1", "call:Release"])
            let ok = twice.stdout.components(separatedBy: "VerifyStop ok").count - 1
            let refused = twice.stdout.components(separatedBy: "VerifyStop error net.reactivated.Fprint.Error.AlreadyInUse").count - 1
                + twice.stdout.components(separatedBy: "VerifyStop error net.reactivated.Fprint.Error.NoActionInProgress").count - 1
            #expect(ok == 1 && refused == 1, "round \(round): \(twice.stdout)")
            #expect(twice.stdout.contains("Release ok"), "round \(round): \(twice.stdout)")
        }
    }

    @Test func aPolkitDialogLeftOpenBlocksNoOtherClient() async throws {
        let bus = try await FprintdBus()
        try await bus.slowPolkit(3)
        let waiting = try bus.startClient(["call:Claim:root", "call:Release"])
        try #require(try await eventually(within: 10) { bus.polkitWasAsked }, "the Claim never reached polkit")
        let other = try await bus.client(["manager:GetDevices", "get:name", "objects"])
        let status = try await bus.service!.request("GET", "/v1/status")
        #expect(other.stdout.contains("GetDevices ok [/net/reactivated/Fprint/Device/0]") && status.status == 200, "\(other.stdout)")
        // Answered while polkit was still being asked for the first client, not after.
        #expect(!waiting.output.contains("Claim ok"), "the claim still waits for polkit: \(waiting.output)")
        #expect(try await waiting.finish() == 0 && waiting.output.contains("Claim ok"), "\(waiting.output)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func eachMethodThatNeedsAClaimRefusesWithoutOne(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let methods = ["VerifyStart:any", "VerifyStop", "EnrollStart:left-thumb", "EnrollStop", "Release",
                       "DeleteEnrolledFingers2", "DeleteEnrolledFinger:left-thumb"]
        let result = try await bus.client(methods.map { "call:" + $0 })
        for method in methods {
            let name = method.split(separator: ":")[0]
            #expect(result.stdout.contains("\(name) error net.reactivated.Fprint.Error.ClaimDevice: Device was not claimed before use"),
                    "\(name): \(result.stdout)")
        }
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func theErrorsOfAClaimedDevice(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        let result = try await bus.client([
            "call:Claim:root", "call:VerifyStop", "call:EnrollStop", "call:VerifyStart:middle-toe", "call:VerifyStart:any",
            "call:EnrollStart:any", "call:DeleteEnrolledFinger:any", "call:DeleteEnrolledFinger:left-thumb",
            "call:DeleteEnrolledFingers2", "call:ListEnrolledFingers:", "call:Release",
        ])
        let lines = result.stdout
        #expect(lines.contains("VerifyStop error net.reactivated.Fprint.Error.NoActionInProgress: No verification in progress"), "\(lines)")
        #expect(lines.contains("EnrollStop error net.reactivated.Fprint.Error.NoActionInProgress: No enrollment in progress"), "\(lines)")
        // fprintd takes a name it does not know for "any"; fpbridged says what was wrong (on purpose).
        #expect(lines.contains(daemon == .fprintd ? "VerifyStart error net.reactivated.Fprint.Error.NoEnrolledPrints"
                                                  : "VerifyStart error net.reactivated.Fprint.Error.InvalidFingername"), "\(lines)")
        #expect(lines.contains("VerifyStart error net.reactivated.Fprint.Error.NoEnrolledPrints: No fingerprints enrolled"), "\(lines)")
        #expect(lines.contains("EnrollStart error net.reactivated.Fprint.Error.InvalidFingername"), "\(lines)")
        #expect(lines.contains("DeleteEnrolledFinger error net.reactivated.Fprint.Error.InvalidFingername"), "\(lines)")
        #expect(lines.contains("DeleteEnrolledFinger error net.reactivated.Fprint.Error.NoEnrolledPrints: "
                               + "Fingerprint for finger left-thumb is not enrolled"), "\(lines)")
        #expect(lines.contains("DeleteEnrolledFingers2 error net.reactivated.Fprint.Error.NoEnrolledPrints"), "\(lines)")
        #expect(lines.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"), "\(lines)")
        #expect(lines.contains("Release ok"), "\(lines)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func polkitSayingNoRefusesEveryAuthorizedMethod(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, allowed: [])
        let result = try await bus.client(["call:ListEnrolledFingers:root", "call:Claim:root", "call:DeleteEnrolledFingers:root"])
        #expect(result.stdout.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.PermissionDenied: "
                                       + "Not Authorized: net.reactivated.fprint.device.verify"), "\(result.stdout)")
        #expect(result.stdout.contains("Claim error net.reactivated.Fprint.Error.PermissionDenied"), "\(result.stdout)")
        #expect(result.stdout.contains("DeleteEnrolledFingers error net.reactivated.Fprint.Error.PermissionDenied: "
                                       + "Not Authorized: net.reactivated.fprint.device.enroll"), "\(result.stdout)")
        let tool = try await bus.run(["/usr/bin/fprintd-verify", "root"])
        #expect(tool.status == 1 && tool.stdout.contains("PermissionDenied"), "\(tool.stdout)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func actingForAnotherUserNeedsSetusername(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon, allowed: ["net.reactivated.fprint.device.verify", "net.reactivated.fprint.device.enroll"])
        let own = try await bus.client(["call:Claim:", "call:Release"])
        #expect(own.stdout.hasPrefix("Claim ok"), "the caller's own name needs no setusername: \(own.stdout)")
        let other = try await bus.client(["call:Claim:nobody", "call:ListEnrolledFingers:nobody"])
        #expect(other.stdout.contains("Claim error net.reactivated.Fprint.Error.PermissionDenied: "
                                      + "Not Authorized: net.reactivated.fprint.device.setusername"), "\(other.stdout)")
        #expect(other.stdout.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.PermissionDenied"), "\(other.stdout)")
    }

    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func propertiesFollowTheScanAndAnnounceEachChange(daemon: FprintdBus.Daemon) async throws {
        let bus = try await FprintdBus(daemon)
        try await enroll(bus)
        try await enroll(bus, "left-thumb", print: "p4")
        let client = try bus.startClient([
            "get:name", "get:scan-type", "get:num-enroll-stages", "call:Claim:root", "get:num-enroll-stages",
            "call:VerifyStart:any", "wait:VerifyStatus", "call:VerifyStop", "get:finger-needed", "call:Release",
        ])
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        try await bus.scan("p4")
        #expect(try await client.finish() == 0, "\(client.output)")
        let lines = client.output.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["name = Virtual device for debugging", "scan-type = swipe"], "\(lines)")
        // The reader's count, claimed or not, as fprintd says (FprintdPropertyTests).
        #expect(lines.filter { $0.hasPrefix("num-enroll-stages") } == ["num-enroll-stages = 5", "num-enroll-stages = 5"], "\(lines)")
        // "any" identifies among the user's prints: the left thumb matches. fprintd names the
        // first print it loaded; fpbridged says "any", since any of them may match.
        let selected = daemon == .fprintd ? "signal VerifyFingerSelected left-thumb" : "signal VerifyFingerSelected any"
        let order = ["VerifyStart ok", selected, "changed finger-needed=True",
                     "signal VerifyStatus verify-match True", "VerifyStop ok", "finger-needed = False", "Release ok"]
        let positions = order.map { line in lines.firstIndex(of: line) }
        #expect(!positions.contains(nil), "\(lines)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "in this order: \(lines)")
        #expect(lines.contains("changed finger-needed=False"), "\(lines)")
    }

    @Test func sleepEndsAVerificationWithUnknownErrorAndTheClientStartsAgainAfterWaking() async throws {
        let bus = try await FprintdBus()
        try await enroll(bus)
        let client = try bus.startClient(["call:Claim:root", "call:VerifyStart:any", "wait:VerifyStatus", "call:VerifyStop",
                                          "sleep:1", "call:VerifyStart:any", "wait:VerifyStatus", "call:VerifyStop", "call:Release"])
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        try await bus.prepareForSleep(true)
        #expect(try await client.waitFor("signal VerifyStatus verify-unknown-error True"), "\(client.output)")
        try await bus.prepareForSleep(false)
        #expect(try await client.waitFor("VerifyStart ok", timeout: 10), "\(client.output)")
        // The finger goes down once the new verify's scan waits for it (finger-needed again).
        try #require(try await client.waitFor(count: 2) { $0.components(separatedBy: "changed finger-needed=True").count - 1 },
                     "\(client.output)")
        try await bus.scan("p1")
        #expect(try await client.finish() == 0, "\(client.output)")
        #expect(client.output.contains("signal VerifyStatus verify-match True"), "\(client.output)")
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "the interrupted scan counted nothing")
    }

    @Test func theInstalledBusPolicyLetsOnlyTheServiceOwnTheNameAndEveryoneCallIt() async throws {
        let bus = try await FprintdBus(installedPolicy: true)
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let seize = try await bus.run(["/usr/bin/gdbus", "call", "--system", "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus",
                                       "-m", "org.freedesktop.DBus.RequestName", "net.reactivated.Fprint", "4"], launcher: nobody)
        #expect(seize.status != 0 && seize.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(seize.stdout)\(seize.stderr)")
        let list = try await bus.run(["/usr/bin/fprintd-list", "nobody"], launcher: nobody)
        #expect(list.status == 0 && list.stdout.contains("User nobody has no fingers enrolled"), "\(list.stdout)")
    }
}

/// Readers plugged in and pulled out while clients are on the bus: Device objects come and go
/// with `InterfacesAdded` and `InterfacesRemoved`, and a scan whose reader is pulled out ends
/// with `verify-disconnected`, counting nothing.
@Suite(.serialized) struct FprintdHotPlugTests {
    @Test func aReaderPulledOutMidVerifyEndsItAsDisconnectedAndItsObjectGoes() async throws {
        let bus = try await FprintdBus(serviceArguments: ["--reader-idle-seconds", "60"])
        let enrolled = try await bus.enroll()
        try #require(enrolled.status == 0, "\(enrolled.stdout)")
        let client = try bus.startClient(["call:Claim:root", "call:VerifyStart:any", "wait:VerifyStatus", "wait:InterfacesRemoved",
                                          "manager:GetDevices", "manager:GetDefaultDevice"])
        #expect(try await client.waitFor("changed finger-needed=True"), "\(client.output)")
        try await VirtualReaderDriver.send(bus.readerSocket, ["UNPLUG "])
        #expect(try await client.finish() == 0, "\(client.output)")
        let lines = client.output.split(separator: "\n").map(String.init)
        let status = lines.firstIndex(of: "signal VerifyStatus verify-disconnected True")
        let removed = lines.firstIndex { $0.hasPrefix("signal InterfacesRemoved /net/reactivated/Fprint/Device/0") }
        #expect(status != nil && removed != nil && status! < removed!, "the status, then the object goes: \(lines)")
        #expect(lines.contains("GetDevices ok []"), "\(lines)")
        #expect(lines.contains("GetDefaultDevice error net.reactivated.Fprint.Error.NoSuchDevice: No devices available"), "\(lines)")
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "nothing was counted")
    }

    @Test(.enabled(if: SharedData.available && (USBTestbed.available || SharedData.isCI),
                   "needs ../shared/replays, umockdev and gir1.2-umockdev-1.0"))
    func aReaderPluggedInBecomesADeviceAndOnePulledOutIsGone() async throws {
        let testbed = try await USBTestbed()
        let bus = try await FprintdBus(readerEnvironment: testbed.environment, reader: "libfprint")
        let empty = try await bus.client(["manager:GetDevices"])
        #expect(empty.stdout == "GetDevices ok []\n", "\(empty.stdout)")
        let watcher = try bus.startClient(["say:ready", "wait:InterfacesAdded", "manager:GetDevices", "get:name",
                                           "wait:InterfacesRemoved", "manager:GetDevices"])
        try #require(try await watcher.waitFor("ready"), "\(watcher.output)")
        try await testbed.plug("elan")
        #expect(try await watcher.waitFor("name = "), "\(watcher.output)")
        try await testbed.unplug("elan")
        #expect(try await watcher.finish() == 0, "\(watcher.output)")
        let lines = watcher.output.split(separator: "\n").map(String.init).filter { $0 != "ready" }
        #expect(lines.first?.hasPrefix("signal InterfacesAdded /net/reactivated/Fprint/Device/") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("GetDevices ok [/net/reactivated/Fprint/Device/") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("signal InterfacesRemoved /net/reactivated/Fprint/Device/") }, "\(lines)")
        #expect(lines.last == "GetDevices ok []", "\(lines)")
    }
}

/// The engine's lockout rules through fprintd's interface, as the behaviour suite checks them
/// through the CLI: failures in a row, one counter whichever door they came through, a lockout
/// that outlives the service process, and the passcode that lifts it.
@Suite(.serialized) struct FprintdLockoutTests {
    func verify(_ bus: FprintdBus, _ print: String) async throws -> CommandResult {
        try await bus.withScans(["/usr/bin/fprintd-verify", "root"], after: "Verify started", scans: [print])
    }

    /// `fpbridge ARGS` through the bus's fpbridged socket, for root.
    func fpbridge(_ bus: FprintdBus, _ arguments: [String], input: String = "",
                  onStderr: (@Sendable (String) -> Void)? = nil) async throws -> CommandResult {
        try await Fpbridge.run(["--json"] + arguments, environment: bus.service!.clientEnvironment.merging(
            ["FPBRIDGE_READER": "libfprint:virtual_device"]) { $1 }, input: input, onStderr: onStderr)
    }

    @Test func aMatchBeforeTheFifthStartsTheCountAgain() async throws {
        let bus = try await FprintdBus()
        try #require(try await bus.enroll().status == 0)
        for _ in 1...4 { #expect(try await verify(bus, "p2").status == 1) }
        #expect(try await bus.lockout("root")["failures"] as? Int == 4)
        #expect(try await verify(bus, "p1").status == 0)
        #expect(try await bus.lockout("root")["failures"] as? Int == 0, "a match clears the failures")
        for _ in 1...4 { #expect(try await verify(bus, "p2").status == 1) }
        #expect(try await bus.lockout("root")["lockedOut"] as? Bool == false, "four in a row do not lock")
    }

    @Test func failuresThroughEitherDoorAddUpAndTheLockoutOutlivesTheServiceUntilThePasscodeLiftsIt() async throws {
        let bus = try await FprintdBus(serviceArguments: ["--reader-idle-seconds", "0"])
        #expect(try await fpbridge(bus, ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        try #require(try await bus.enroll().status == 0)
        for _ in 1...3 { #expect(try await verify(bus, "p2").status == 1) }
        // Two more through the socket, with the CLI: the same counter.
        for _ in 1...2 {
            // The wrong finger goes down once the verify asks for it, that is once its scan started.
            let prompts = PromptSignal(Bench.scanPrompt)
            let watchPrompt = prompts.watcher()
            let wrong = Task {
                defer { prompts.finish() }
                return try await fpbridge(bus, ["verify"], onStderr: watchPrompt)
            }
            try #require(await prompts.next(within: 30), "the verify never asked for the finger")
            try await bus.scan("p2")
            #expect(try await wrong.value.status == 1)
        }
        #expect(try await bus.lockout("root")["lockedOut"] as? Bool == true, "3 + 2 in a row lock")

        try await bus.restartService()
        let refused = try await bus.run(["/usr/bin/fprintd-verify", "root"], timeout: 20)
        #expect(refused.status == 1 && refused.stdout.contains("NoEnrolledPrints: Fingerprint is locked out"),
                "still locked out after a restart: \(refused.stdout)")

        let unlocked = try await fpbridge(bus, ["unlock", "--passcode-stdin"], input: "2468\n")
        #expect(unlocked.status == 0, "\(unlocked.stdout)\(unlocked.stderr)")
        let again = try await verify(bus, "p1")
        #expect(again.status == 0 && again.stdout.contains("verify-match"), "the passcode lifted it: \(again.stdout)")
    }
}

/// Damaged state through fprintd's interface fails closed: a print file that cannot be read is
/// an `Internal` error naming it, never a shorter list, and `pam_fprintd` then goes to the
/// password.
@Suite(.serialized) struct FprintdDamagedStateTests {
    @Test func aDamagedPrintFileIsAnInternalErrorNotAFingerLess() async throws {
        let bus = try await FprintdBus()
        for finger in ["right-index-finger", "left-thumb"] {
            let enrolled = try await bus.enroll(finger)
            try #require(enrolled.status == 0, "\(enrolled.stdout)")
        }
        let file = bus.service!.stateDirectory + "/prints/root/virtual_device/0/left-thumb.json"
        try #require(FileManager.default.fileExists(atPath: file))
        try Data("{not a print".utf8).write(to: URL(fileURLWithPath: file))
        let result = try await bus.client(["call:ListEnrolledFingers:root", "call:Claim:root", "call:VerifyStart:any",
                                           "call:EnrollStart:right-thumb", "call:Release"])
        #expect(result.stdout.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.Internal: a print of root is damaged"),
                "\(result.stdout)")
        #expect(result.stdout.contains("VerifyStart error net.reactivated.Fprint.Error.Internal"), "\(result.stdout)")
        #expect(result.stdout.contains("EnrollStart error net.reactivated.Fprint.Error.Internal"), "\(result.stdout)")
        #expect(result.stdout.contains("Release ok"), "\(result.stdout)")
        #expect(try await bus.lockout("root")["failures"] as? Int == 0)
    }
}
