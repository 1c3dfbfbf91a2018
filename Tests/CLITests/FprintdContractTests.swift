@testable import FPService
import Foundation
import Testing

/// The Device interface the face declares is fprintd's own: every method with its arguments,
/// every signal and every property with its type, against the interface file Debian's fprintd
/// package installs. The names now live in one list each (``FprintdMethod``,
/// ``FprintdProperty``; issue 41 §3, where they were written in three places).
@Suite struct FprintdContractTests {
    static let fprintdFile = "/usr/share/dbus-1/interfaces/net.reactivated.Fprint.Device.xml"

    /// Members of the `net.reactivated.Fprint.Device` interface in `xml`: "method Claim(s username in)",
    /// "signal VerifyStatus(s result, b done)", "property finger-present b", whatever the attributes' order.
    func members(_ xml: String) throws -> Set<String> {
        let interface = try #require(xml.components(separatedBy: #"<interface name="net.reactivated.Fprint.Device">"#).dropFirst().first?
            .components(separatedBy: "</interface>").first, "no Device interface")
        func attributes(_ text: Substring) -> [String: String] {
            var found: [String: String] = [:]
            for match in text.matches(of: /([a-z]+)="([^"]*)"/) { found[String(match.output.1)] = String(match.output.2) }
            return found
        }
        var members = Set<String>()
        for match in interface.matches(of: /<(method|signal) ([^>]*?)(\/>|>(.*?)<\/\1>)/.dotMatchesNewlines()) {
            let name = attributes(match.output.2)["name"] ?? "?"
            let arguments = (match.output.4 ?? "").matches(of: /<arg\b([^>]*)>/).map { argument in
                let found = attributes(argument.output.1)
                let direction = match.output.1 == "method" ? " " + (found["direction"] ?? "in") : ""
                return "\(found["type"] ?? "?") \(found["name"] ?? "?")" + direction
            }
            members.insert("\(match.output.1) \(name)(\(arguments.joined(separator: ", ")))")
        }
        for match in interface.matches(of: /<property ([^>]*)>/) {
            let found = attributes(match.output.1)
            members.insert("property \(found["name"] ?? "?") \(found["type"] ?? "?")")
        }
        return members
    }

    @Test func theDeviceInterfaceIsFprintdsMethodForMethodAndPropertyForProperty() throws {
        let theirs = try members(String(contentsOfFile: Self.fprintdFile, encoding: .utf8))
        let ours = try members(FprintdInterface.introspection)
        #expect(theirs.count >= 18, "read fprintd's interface: \(theirs.sorted())")
        #expect(ours == theirs, "only ours: \(ours.subtracting(theirs).sorted()); only fprintd's: \(theirs.subtracting(ours).sorted())")
        #expect(Set(FprintdMethod.allCases.map { "method \($0.rawValue)" }) == Set(theirs.filter { $0.hasPrefix("method ") }.map { String($0.prefix { $0 != "(" }) }))
    }
}
