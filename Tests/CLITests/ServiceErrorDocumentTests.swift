import FPAuthentication
import Foundation
import Testing

/// `api/fpbridged.openapi.yaml` lists every error code, name and cause the service can answer
/// with (its `WireError`): a code added to the vocabulary (as -2014 `pinPadResting` was, and
/// went undocumented) or a new cause fails here until the document says it.
@Suite struct ServiceErrorDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `enum: [...]` list of `property` inside the document's `WireError` schema.
    func listed(_ property: String) throws -> Set<String> {
        let document = try String(contentsOf: Self.root.appendingPathComponent("api/fpbridged.openapi.yaml"), encoding: .utf8)
        let schema = try #require(document.components(separatedBy: "\n    WireError:\n").dropFirst().first?
            .components(separatedBy: "\n    ErrorBody:\n").first, "no WireError schema")
        let start = try #require(schema.range(of: "\n        \(property):"), "WireError has no \(property)")
        let list = try #require(schema[start.upperBound...].components(separatedBy: "enum: [").dropFirst().first?
            .components(separatedBy: "]").first, "\(property) has no enum")
        return Set(list.split(whereSeparator: { ", \n".contains($0) }).map(String.init))
    }

    @Test func everyCodeNameAndCauseTheServiceSendsIsDocumented() throws {
        // Apple's codes that nothing here produces are left out of the document on purpose.
        let never: Set<AuthErrorCode> = [.companionNotAvailable, .biometryNotPaired, .invalidDimensions]
        let sent = AuthErrorCode.allCases.filter { !never.contains($0) }
        #expect(try listed("code") == Set(sent.map { String($0.rawValue) }))
        #expect(try listed("name") == Set(sent.map(\.name)))
        #expect(try listed("cause") == Set(AuthErrorCause.allCases.map(\.rawValue)))
    }
}
