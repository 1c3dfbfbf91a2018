import Foundation

/// The message keys the kiosk's Swift sources can send to the page, read from the sources
/// themselves: every `"key"` on a line that sets a message (`message: "…"`, either side of a
/// `?:` included, a `KioskSnapshot(` and what ServiceAbsence `return`s), by file.
/// KioskStringsTests holds them against the page's string tables, KioskAPIDocumentTests
/// against the API document.
enum KioskMessageKeys {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Words on those lines that are no message keys: the parameters' names.
    static let parameterNames: Set = ["user", "left", "detail", "seconds"]

    /// The keys each file of Sources/FPKiosk sends (the page's script and words left out), by file name.
    static func byFile() throws -> [String: Set<String>] {
        let sources = root.appendingPathComponent("Sources/FPKiosk")
        let files = try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" && !["KioskScript.swift", "KioskStrings.swift"].contains($0.lastPathComponent) }
        let literal = try Regex(#""([a-z][A-Za-z]+)""#)
        var keys: [String: Set<String>] = [:]
        for file in files {
            var sent: Set<String> = []
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            where line.contains("message:") || line.contains("KioskSnapshot(") || line.contains("return \"") {
                sent.formUnion(line.matches(of: literal).compactMap { $0.output[1].substring.map(String.init) })
            }
            let messages = sent.subtracting(parameterNames)
            if !messages.isEmpty { keys[file.lastPathComponent] = messages }
        }
        return keys
    }
}
