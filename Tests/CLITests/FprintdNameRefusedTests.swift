import Foundation
import Testing
import TestSupport

/// fpbridged cannot take `net.reactivated.Fprint`: it goes on serving the socket and says why in
/// `fprintdBus` (GET /v1/service and `fpbridge status`), with the cure that fits the cause. A
/// bus whose policy refuses the name is not cured by masking fprintd: on a booted Debian the
/// install's bus policy was read before the user `fpbridge` existed, and the log sent the user
/// to fprintd (issue 38).
@Suite(.serialized) struct FprintdNameRefusedTests {
    /// Waits until the service has tried the bus and given up, and returns what it says.
    func fprintdBus(_ service: ServiceProcess) async throws -> String {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let said = try await service.request("GET", "/v1/service").json["fprintdBus"] as? String ?? ""
            if said.hasPrefix("unavailable") || Date() > deadline { return said }
            // A poll until the service says it gave up (it signals that to nobody), not a wait
            // for time to pass: the deadline above bounds it.
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func aNameTheBusPolicyRefusesIsBlamedOnThePolicyAndTheReloadNotOnFprintd() async throws {
        let bus = try await FprintdBus(installedPolicy: true, ownershipRefused: true)
        let service = try #require(bus.service)
        let said = try await fprintdBus(service)
        #expect(said.contains("org.freedesktop.DBus.Error.AccessDenied") || said.contains("not allowed to own"), "\(said)")
        #expect(said.contains("the bus's policy does not let root own it"), "\(said)")
        #expect(said.contains("sudo systemctl reload dbus") && said.contains("restart fpbridged"), "\(said)")
        #expect(!said.contains("mask fprintd"), "masking fprintd changes nothing here: \(said)")
        #expect(service.output.contains("fprintd's D-Bus API is not served: ") && service.output.contains("systemctl reload dbus"),
                "the log says it too: \(service.output)")
        // The user's own check shows it, and the socket still serves.
        let status = try await Fpbridge.run(["--service", service.socket, "status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("fprintd's D-Bus API: unavailable: ") && status.stdout.contains("systemctl reload dbus"),
                "\(status.stdout)")
    }

    @Test func aNameAnotherProcessHoldsNamesItAndSendsTheUserToFprintd() async throws {
        let bus = try await FprintdBus()
        let second = try await ServiceProcess(environment: bus.environment, arguments: ["--dbus", "on", "--reader", "fake"])
        let said = try await fprintdBus(second)
        let holder = try #require(bus.service).pid
        #expect(said.contains("is held by process \(holder) (fpbridged)"), "\(said)")
        #expect(said.contains("mask fprintd (systemctl mask --now fprintd)"), "\(said)")
        // The one that holds it says so in `fpbridge status`, with its version.
        let status = try await Fpbridge.run(["--json", "--service", try #require(bus.service).socket, "status"])
        let service = status.json["service"] as? [String: Any]
        #expect(service?["fprintdBus"] as? String == "serving" && (service?["version"] as? String)?.isEmpty == false, "\(status.stdout)")
    }
}
