import Foundation
@testable import FPKiosk
import Testing
import TestSupport

/// `api/fpbridge-kiosk.openapi.yaml` and the kiosk's code say the same: the routes the router
/// serves are the document's paths, and the states, message keys and fields a snapshot and a
/// PIN answer can carry are the document's. A route, a state or a message added to the code
/// fails here until the document says it (and one only in the document fails too).
@Suite struct KioskAPIDocumentTests {
    /// The document as JSON (read by PyYAML: python3-yaml, with the browser tests' packages).
    func document() throws -> [String: Any] {
        let path = KioskMessageKeys.root.appendingPathComponent("api/fpbridge-kiosk.openapi.yaml").path
        let read = Spawn.shell(["/usr/bin/python3", "-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", path])
        try #require(read.status == 0, "\(read.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: Any])
    }

    /// The schema `name` of the document's components.
    func schema(_ name: String, in document: [String: Any]) throws -> [String: Any] {
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        return try #require(schemas?[name] as? [String: Any], "no schema \(name)")
    }

    func enumeration(_ name: String, in document: [String: Any]) throws -> Set<String> {
        Set(try #require(try schema(name, in: document)["enum"] as? [String], "\(name) has no enum"))
    }

    func properties(_ name: String, in document: [String: Any]) throws -> Set<String> {
        Set(try #require(try schema(name, in: document)["properties"] as? [String: Any], "\(name) has no properties").keys)
    }

    /// The keys `value` is encoded with, every optional field set.
    func encodedKeys(_ value: some Encodable) throws -> Set<String> {
        Set(try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]).keys)
    }

    @Test func theRoutesAreTheDocumentsPaths() throws {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        let documented = paths.flatMap { path, operations in
            operations.keys.filter { ["get", "post", "put", "patch", "delete"].contains($0) }.map { "\($0.uppercased()) \(path)" }
        }.sorted()
        let server = KioskServer(listen: try ListenAddress(parsing: "127.0.0.1:0"), backend: ScriptedReader([]),
                                 pageUsers: try PageUsers())
        let served = server.routes()
        #expect(served.count >= 7, "\(served): the router's routes are no longer read")
        #expect(served == documented, "served only: \(Set(served).subtracting(documented).sorted()); documented only: \(Set(documented).subtracting(served).sorted())")
    }

    @Test func theSnapshotsStatesMessagesAndFieldsAreTheDocuments() throws {
        let document = try document()
        #expect(try enumeration("KioskState", in: document) == Set(KioskState.allCases.map(\.rawValue)))
        let keys = try KioskMessageKeys.byFile()
        let pinKeys = try #require(keys["PinPad.swift"], "no message keys read from PinPad.swift")
        let snapshotKeys = keys.filter { $0.key != "PinPad.swift" }.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(snapshotKeys.count > 15, "\(snapshotKeys.count) snapshot keys read from the sources: the scan no longer finds them")
        let snapshotMessages = try enumeration("SnapshotMessage", in: document)
        #expect(snapshotMessages == snapshotKeys, "sent only: \(snapshotKeys.subtracting(snapshotMessages).sorted()); documented only: \(snapshotMessages.subtracting(snapshotKeys).sorted())")
        let pinMessages = try enumeration("PinMessage", in: document)
        #expect(pinMessages == pinKeys, "answered only: \(pinKeys.subtracting(pinMessages).sorted()); documented only: \(pinMessages.subtracting(pinKeys).sorted())")

        let everyField = KioskSnapshot(.welcome, message: "welcome", parameters: ["user": "alice"], countdown: 1, user: "alice", session: "token")
        #expect(try properties("KioskSnapshot", in: document) == encodedKeys(everyField))
        let everyAnswer = PinPad.Answer(ok: true, user: "alice", message: "welcome", parameters: [:], retryAfter: 1, session: "token")
        #expect(try properties("PinAnswer", in: document) == encodedKeys(everyAnswer))
    }
}
