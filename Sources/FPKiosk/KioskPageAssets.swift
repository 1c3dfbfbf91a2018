import Foundation

/// What the page is made of besides its HTML: the stylesheet, its words per language and a
/// logo. Built in, or with `--page-dir DIR` the directory's files in place of the built-in ones
/// (each file replaces one; what the directory lacks stays built in), read and checked once at
/// start: a file that would make a broken page stops the start with the file named.
///
/// The directory may hold only these names: `kiosk.css` (the whole stylesheet), `logo.svg` or
/// `logo.png` (shown in the page's header), and `strings.LANG.json` (a JSON object of the
/// built-in English table's keys, each a string; `en` and `zh` replace the built-in tables,
/// any other `LANG` adds a language after them). `--export-page DIR` writes the built-in ones.
///
/// A strings file written for another version of the kiosk still starts it: a key it lacks
/// (one a newer kiosk added) keeps its built-in words, that language's or else English, and
/// a key the page no longer has is left out; each is told as a warning at start. An upgrade
/// must not leave a lobby's screen dark over a sentence.
package struct KioskPageAssets: Sendable, Equatable {
    /// The stylesheet, `GET /kiosk.css`.
    package var css: String
    /// The words, in the order the page's language button goes through them; the first is the default.
    package var languages: [KioskLanguage]
    /// `GET /logo`, when there is one.
    package var logo: Logo?

    /// A logo's bytes and their media type.
    package struct Logo: Sendable, Equatable {
        /// The file's bytes.
        package var bytes: [UInt8]
        /// `image/svg+xml` or `image/png`.
        package var type: String
    }

    /// The page as built in.
    package static let builtIn = KioskPageAssets(css: KioskStyle.css, languages: KioskStrings.builtIn, logo: nil)

    /// The files the directory may hold besides `strings.LANG.json`.
    static let fixedNames = ["kiosk.css", "logo.svg", "logo.png"]
    /// The most any one file may hold: a page, not a place for large files.
    static let largest = 1 << 20

    package init(css: String, languages: [KioskLanguage], logo: Logo?) {
        self.css = css
        self.languages = languages
        self.logo = logo
    }

    /// The built-in page with `directory`'s files in place of the built-in ones. Throws words
    /// naming the directory or the file, and the key, for anything that would break the page:
    /// a name it does not know, a file it cannot read, words that are not a string or name a
    /// `{placeholder}` the key does not have. A key missing or unknown is handed to `warn`.
    package init(directory: String, warn: (String) -> Void = { _ in }) throws(PageDirectoryError) {
        self = .builtIn
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted() } catch {
            throw PageDirectoryError("--page-dir \(directory): cannot read the directory: \(Self.reason(error))")
        }
        var added: [KioskLanguage] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            if name == "kiosk.css" {
                css = try Self.text(path)
            } else if name == "logo.svg" || name == "logo.png" {
                guard logo == nil else { throw PageDirectoryError("--page-dir \(directory): logo.svg and logo.png both; keep one") }
                logo = try Self.logo(path, svg: name == "logo.svg")
            } else if let language = Self.language(ofStringsFile: name) {
                let index = languages.firstIndex(where: { $0.language == language })
                let builtIn = index.map { languages[$0] } ?? KioskStrings.builtIn[0]
                let table = KioskLanguage(language: language, strings: try Self.table(path, over: builtIn, warn: warn))
                if let index {
                    languages[index] = table
                } else {
                    added.append(table)
                }
            } else {
                throw PageDirectoryError("--page-dir \(directory): \(name) is none of the page's files (kiosk.css, logo.svg or "
                                         + "logo.png, strings.LANG.json); a misspelt name would be ignored, so it is refused")
            }
        }
        languages += added
    }

    /// Writes the built-in files into `directory` (made if missing), as a starting point for
    /// `--page-dir`; refuses to replace a file there. The paths written.
    package static func exportBuiltIn(to directory: String) throws(PageDirectoryError) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var files = [("kiosk.css", Data(builtIn.css.utf8))]
        for language in builtIn.languages {
            guard let json = try? encoder.encode(language.strings) else { continue }
            files.append(("strings.\(language.language).json", json + Data("\n".utf8)))
        }
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw PageDirectoryError("--export-page \(directory): cannot make the directory: \(reason(error))")
        }
        let paths = files.map { (directory as NSString).appendingPathComponent($0.0) }
        if let existing = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw PageDirectoryError("--export-page \(directory): \(existing) exists already; export into an empty directory")
        }
        for ((_, data), path) in zip(files, paths) {
            do { try data.write(to: URL(fileURLWithPath: path), options: .withoutOverwriting) } catch {
                throw PageDirectoryError("--export-page \(directory): cannot write \(path): \(reason(error))")
            }
        }
        return paths
    }

    /// `strings.LANG.json`'s LANG: two or three letters, then optionally `-` and 2 to 8 letters or digits.
    static func language(ofStringsFile name: String) -> String? {
        guard name.hasPrefix("strings."), name.hasSuffix(".json") else { return nil }
        let code = String(name.dropFirst("strings.".count).dropLast(".json".count))
        return code.wholeMatch(of: /[a-z]{2,3}(-[A-Za-z0-9]{2,8})?/) == nil ? nil : code
    }

    private static func bytes(_ path: String) throws(PageDirectoryError) -> Data {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw PageDirectoryError("--page-dir: \(path) is a directory, not a file")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw PageDirectoryError("--page-dir: cannot read \(path): \(reason(error))")
        }
        guard data.count <= largest else { throw PageDirectoryError("--page-dir: \(path) is over 1 MiB") }
        return data
    }

    private static func text(_ path: String) throws(PageDirectoryError) -> String {
        guard let text = String(data: try bytes(path), encoding: .utf8) else {
            throw PageDirectoryError("--page-dir: \(path) is not UTF-8 text")
        }
        return text
    }

    private static func logo(_ path: String, svg: Bool) throws(PageDirectoryError) -> Logo {
        let data = try bytes(path)
        if svg {
            guard let text = String(data: data, encoding: .utf8), text.contains("<svg") else {
                throw PageDirectoryError("--page-dir: \(path) is not an SVG image (no <svg element in UTF-8 text)")
            }
            return Logo(bytes: Array(data), type: "image/svg+xml")
        }
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw PageDirectoryError("--page-dir: \(path) is not a PNG image")
        }
        return Logo(bytes: Array(data), type: "image/png")
    }

    /// A strings file over `builtIn`'s words: each of its keys the page has, a string whose
    /// `{placeholders}` are among that key's own; a key it lacks keeps `builtIn`'s words.
    private static func table(_ path: String, over builtIn: KioskLanguage,
                              warn: (String) -> Void) throws(PageDirectoryError) -> [String: String] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(try text(path).utf8)) } catch let error as PageDirectoryError {
            throw error
        } catch {
            throw PageDirectoryError("--page-dir: \(path) is not JSON: \(reason(error))")
        }
        guard let entries = object as? [String: Any] else {
            throw PageDirectoryError("--page-dir: \(path) is not a JSON object of the page's keys and their words")
        }
        let reference = KioskStrings.english
        let missing = reference.keys.sorted().filter { entries[$0] == nil }
        if !missing.isEmpty {
            warn("--page-dir: \(path) has no " + missing.map { "\"\($0)\"" }.joined(separator: ", ")
                 + "; the page shows the built-in words (\(builtIn.language)) there until the file has them "
                 + "(--export-page writes every key)")
        }
        let unknown = entries.keys.sorted().filter { reference[$0] == nil }
        if !unknown.isEmpty {
            warn("--page-dir: \(path) has " + unknown.map { "\"\($0)\"" }.joined(separator: ", ")
                 + ", which the page does not use (a misspelt key, or one this version no longer has); left out")
        }
        var table = builtIn.strings
        for (key, value) in entries where reference[key] != nil {
            guard let words = value as? String else { throw PageDirectoryError("--page-dir: \(path): \"\(key)\" is not a string") }
            let unknown = placeholders(words).subtracting(placeholders(reference[key]!))
            if let name = unknown.sorted().first {
                throw PageDirectoryError("--page-dir: \(path): \"\(key)\" names {\(name)}, which the page never fills in "
                                         + "(it fills in: \(placeholders(reference[key]!).sorted().map { "{\($0)}" }.joined(separator: " ")))")
            }
            table[key] = words
        }
        return table
    }

    private static func placeholders(_ words: String) -> Set<String> {
        Set(words.matches(of: /\{(\w+)\}/).map { String($0.output.1) })
    }

    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}

/// Why `--page-dir` or `--export-page` was refused, in words.
package struct PageDirectoryError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
