@testable import FPKiosk
import Foundation
import Testing
import TestSupport

/// `--page-dir` and `--export-page`: the page branded and translated without rebuilding, and a
/// directory that would make a broken page refused at start with the file (and key) named.
@Suite struct KioskPageDirectoryTests {
    let directory = TemporaryDirectory()

    /// The built-in files exported into a fresh directory.
    func exported(_ name: String = "page") throws -> String {
        let page = directory.file(name)
        _ = try KioskPageAssets.exportBuiltIn(to: page)
        return page
    }

    func table(_ file: String) throws -> [String: String] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: String])
    }

    func write(_ table: [String: String], to file: String) throws {
        try JSONSerialization.data(withJSONObject: table).write(to: URL(fileURLWithPath: file))
    }

    /// Why `page` is refused; "" when it is not.
    func refusal(_ page: String) -> String {
        do { _ = try KioskPageAssets(directory: page) } catch { return error.description }
        return ""
    }

    @Test func theExportIsTheBuiltInPageAndIsNotWrittenTwice() throws {
        let page = try exported()
        #expect(try FileManager.default.contentsOfDirectory(atPath: page).sorted() == ["kiosk.css", "strings.en.json", "strings.zh.json"])
        #expect(try KioskPageAssets(directory: page) == .builtIn)
        #expect(throws: PageDirectoryError.self) { try KioskPageAssets.exportBuiltIn(to: page) }
    }

    @Test func aFileReplacesItsBuiltInOneAndAnotherLanguageIsAdded() throws {
        let page = directory.file("own")
        try FileManager.default.createDirectory(atPath: page, withIntermediateDirectories: true)
        try "body { background: #003; }\n".write(toFile: page + "/kiosk.css", atomically: true, encoding: .utf8)
        var french = KioskStrings.english
        french["touchReader"] = "Touchez le lecteur"
        french["languageName"] = "Français"
        try write(french, to: page + "/strings.fr.json")
        try #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>"#
            .write(toFile: page + "/logo.svg", atomically: true, encoding: .utf8)
        let assets = try KioskPageAssets(directory: page)
        #expect(assets.css == "body { background: #003; }\n")
        #expect(assets.languages.map(\.language) == ["en", "zh", "fr"])
        #expect(assets.languages.last?.strings["touchReader"] == "Touchez le lecteur")
        #expect(assets.languages.prefix(2).elementsEqual(KioskPageAssets.builtIn.languages))
        #expect(assets.logo?.type == "image/svg+xml")
    }

    /// A strings file of another version (exported before a key was added, or after one went)
    /// starts the kiosk: the missing key keeps its built-in words, an unknown one is left out,
    /// each told as a warning naming file and key. Words that would break the page still stop it.
    @Test func aStringsFileOfAnotherVersionKeepsTheBuiltInWordsAndWarnsNamingFileAndKey() throws {
        let page = try exported()
        let chinese = page + "/strings.zh.json"
        var table = try table(chinese)
        table["welcome"] = nil
        table["welcom"] = "欢迎"
        table["touchReader"] = "请按指纹"
        try write(table, to: chinese)
        var warnings: [String] = []
        let assets = try KioskPageAssets(directory: page) { warnings.append($0) }
        let words = try #require(assets.languages.first { $0.language == "zh" }?.strings)
        let builtIn = try #require(KioskStrings.builtIn.first { $0.language == "zh" }?.strings)
        #expect(words["welcome"] == builtIn["welcome"] && words["touchReader"] == "请按指纹" && words["welcom"] == nil)
        #expect(Set(words.keys) == Set(KioskStrings.english.keys))
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains(chinese) && $0.contains("no \"welcome\"") && $0.contains("(zh)") }, "\(warnings)")
        #expect(warnings.contains { $0.contains(chinese) && $0.contains("\"welcom\"") }, "\(warnings)")

        // An added language lacking a key shows English there.
        var french = KioskStrings.english
        french["touchReader"] = "Touchez le lecteur"
        french["pinTryAgain"] = nil
        try write(french, to: page + "/strings.fr.json")
        let withFrench = try KioskPageAssets(directory: page)
        #expect(withFrench.languages.last?.strings["pinTryAgain"] == KioskStrings.english["pinTryAgain"])

        table["welcom"] = nil
        table["welcome"] = "欢迎，{name}"
        try write(table, to: chinese)
        let placeholder = refusal(page)
        #expect(placeholder.contains(chinese) && placeholder.contains("{name}") && placeholder.contains("{user}"), "\(placeholder)")
    }

    @Test func aFileThatWouldBreakThePageIsRefusedNamingIt() throws {
        let cases: [(String, (String) throws -> Void, String)] = [
            ("unknown name", { try "x".write(toFile: $0 + "/strings-fr.json", atomically: true, encoding: .utf8) }, "strings-fr.json is none"),
            ("unreadable", { try FileManager.default.createSymbolicLink(atPath: $0 + "/kiosk.css", withDestinationPath: "/nonexistent/kiosk.css") },
             "cannot read"),
            ("not UTF-8", { try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: $0 + "/kiosk.css")) }, "kiosk.css is not UTF-8"),
            ("not JSON", { try "{\"title\": ".write(toFile: $0 + "/strings.en.json", atomically: true, encoding: .utf8) }, "strings.en.json is not JSON"),
            ("not a PNG", { try "<svg/>".write(toFile: $0 + "/logo.png", atomically: true, encoding: .utf8) }, "logo.png is not a PNG"),
        ]
        for (index, (what, damage, words)) in cases.enumerated() {
            let page = directory.file("page\(index)")
            try FileManager.default.createDirectory(atPath: page, withIntermediateDirectories: true)
            try damage(page)
            let refused = refusal(page)
            #expect(refused.hasPrefix("--page-dir") && refused.contains(words), "\(what): \(refused)")
        }
        #expect(refusal(directory.file("missing")).contains("cannot read the directory"))
    }

    /// The kiosk serves the directory's files, and does not start with a broken one.
    @Test func theKioskServesThePageDirectoryAndRefusesABrokenOne() async throws {
        let export = try await Fpbridge.runCommand([KioskProcess.executable, "--export-page", directory.file("exported")],
                                                   environment: ProcessInfo.processInfo.environment, timeout: 20)
        #expect(export.status == 0 && export.stdout.contains("strings.zh.json"), "\(export.stdout)\(export.stderr)")
        let page = directory.file("exported")
        try "body { background: #003; }\n".write(toFile: page + "/kiosk.css", atomically: true, encoding: .utf8)
        var english = try table(page + "/strings.en.json")
        english["serviceDown"] = "Fingerprints are having a rest"
        try write(english, to: page + "/strings.en.json")
        try #"<svg xmlns="http://www.w3.org/2000/svg"/>"#.write(toFile: page + "/logo.svg", atomically: true, encoding: .utf8)

        let kiosk = try await KioskProcess(service: "/nonexistent/fpbridged.sock", arguments: ["--page-dir", page])
        #expect(try await kiosk.request("GET", "kiosk.css").body == "body { background: #003; }\n")
        #expect(try await kiosk.request("GET", "kiosk.js").body.contains("\"serviceDown\":\"Fingerprints are having a rest\""))
        #expect(try await kiosk.request("GET", "").body.contains(#"<img id="logo" src="/logo""#))
        let logo = try await Fpbridge.runCommand(["/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{content_type}", kiosk.url + "logo"],
                                                 environment: ProcessInfo.processInfo.environment, timeout: 20)
        #expect(logo.stdout == "200 image/svg+xml", "\(logo.stdout)")

        // Words naming what the page never fills in: no start, file and key named.
        english["welcome"] = "Hello {name}"
        try write(english, to: page + "/strings.en.json")
        let broken = try await Fpbridge.runCommand([KioskProcess.executable, "--page-dir", page],
                                                   environment: ProcessInfo.processInfo.environment, timeout: 20)
        #expect(broken.status == 2 && broken.stderr.contains(page + "/strings.en.json") && broken.stderr.contains("\"welcome\""),
                "\(broken.stderr)")

        // A key the file lacks (a kiosk upgraded under an older export): it starts, says so,
        // and serves the built-in words there.
        english["welcome"] = nil
        try write(english, to: page + "/strings.en.json")
        let upgraded = try await KioskProcess(service: "/nonexistent/fpbridged.sock", arguments: ["--page-dir", page])
        let welcome = try #require(KioskStrings.english["welcome"])
        #expect(try await upgraded.request("GET", "kiosk.js").body.contains("\"welcome\":\"\(welcome)\""))
        #expect(upgraded.log.contains("warning: --page-dir: \(page)/strings.en.json has no \"welcome\""), "\(upgraded.log)")
    }
}
