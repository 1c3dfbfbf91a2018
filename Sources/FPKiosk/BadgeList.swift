import Foundation

/// `--badges FILE`: badge numbers mapped to user names, so that the PIN pad's user id is digits
/// a pad can type (a kiosk under `cage` has no keyboard) and nobody has to type a name.
///
/// One mapping a line, `NUMBER NAME` (1 to 32 digits, then the user name, which fpbridged
/// checks as it checks every name); blank lines and lines starting with `#` are ignored. The file decides who a number signs in as, so it must
/// be the kiosk administrator's: owned by root or by the kiosk's own user, and writable by
/// nobody else (group or others); a link is refused. Every fault stops the start, naming the line.
package struct BadgeList: Sendable, Equatable {
    private let names: [String: String]

    /// The most digits a badge number may have.
    package static let maximumDigits = 32

    /// The file at `path`, checked (owner, mode, every line).
    package init(path: String, own: uid_t = geteuid()) throws(BadgeListError) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BadgeListError("--badges \(path): cannot open it: \(String(cString: strerror(errno))) (a symbolic link is refused)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw BadgeListError("--badges \(path): not a regular file")
        }
        guard status.st_uid == 0 || status.st_uid == own else {
            throw BadgeListError("--badges \(path): owned by uid \(status.st_uid); it must be root's or the kiosk's own (uid \(own)): "
                                 + "whoever can change it decides who a badge signs in as")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw BadgeListError("--badges \(path): writable by its group or by others (mode \(String(status.st_mode & 0o777, radix: 8))); "
                                 + "chmod go-w it")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        // An empty file reads as no data (nil), not as a failure: its lines are then checked as any others.
        let data: Data
        do { data = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
            throw BadgeListError("--badges \(path): cannot read it: \(error)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw BadgeListError("--badges \(path): it is not UTF-8 text")
        }
        try self.init(parsing: text, source: path)
    }

    /// The mappings in `text`; `source` names the file in errors.
    package init(parsing text: String, source: String) throws(BadgeListError) {
        var names: [String: String] = [:]
        var lines: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.count == 2 else {
                throw BadgeListError("--badges \(source) line \(number): expected 'NUMBER NAME', got \(fields.count) field(s)")
            }
            let (badge, name) = (fields[0], fields[1])
            guard (1...Self.maximumDigits).contains(badge.utf8.count), badge.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw BadgeListError("--badges \(source) line \(number): '\(badge.prefix(40))' is not a badge number (1 to \(Self.maximumDigits) digits)")
            }
            guard name.utf8.count <= 64 else {
                throw BadgeListError("--badges \(source) line \(number): the name '\(name.prefix(70))…' is longer than a user name (64 bytes)")
            }
            if let first = lines[badge] {
                throw BadgeListError("--badges \(source) line \(number): badge \(badge) is already on line \(first)")
            }
            names[badge] = name
            lines[badge] = number
        }
        self.names = names
    }

    /// The user `badge` signs in as; nil for a number the list does not hold.
    package func name(for badge: String) -> String? { names[badge] }

    /// How many badges the list holds.
    package var count: Int { names.count }
}

/// Why `--badges` was refused, in words naming the file and the line.
package struct BadgeListError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
