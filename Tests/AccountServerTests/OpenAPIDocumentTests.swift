import FPAccountAPI
import Foundation
import Testing

/// `api/fpbridge-server.openapi.yaml` documents every route the server registers and every
/// error code it can answer with: the two cannot drift apart unnoticed.
@Suite struct OpenAPIDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyRouteAndEveryErrorCodeIsDocumented() throws {
        let document = try String(contentsOf: Self.root.appendingPathComponent("api/fpbridge-server.openapi.yaml"), encoding: .utf8)
        let routes = try String(contentsOf: Self.root.appendingPathComponent("Sources/FPAccountServer/HTTP/AccountRoutes.swift"), encoding: .utf8)
        let pattern = try Regex(#"v1\.(get|post|delete)\("([^"]+)"\)"#)
        var found = 0
        for match in routes.matches(of: pattern) {
            let method = String(match.output[1].substring ?? "")
            let path = "/v1/" + (match.output[2].substring ?? "").split(separator: "/").map { part in
                part.hasPrefix(":") ? "{\(part.dropFirst())Id}".replacingOccurrences(of: "IdId", with: "Id") : String(part)
            }.joined(separator: "/")
            found += 1
            guard let start = document.range(of: "  \(path):\n") else {
                Issue.record("\(path) is not documented")
                continue
            }
            let rest = document[start.upperBound...]
            let section = rest.prefix { _ in true }.components(separatedBy: "\n  /v1/").first ?? ""
            #expect(section.contains("    \(method):"), "\(method.uppercased()) \(path) is not documented")
        }
        #expect(found >= 11)
        for code in AccountErrorCode.allCases {
            #expect(document.contains(code.rawValue), "error code \(code.rawValue) is not documented")
        }
    }
}
