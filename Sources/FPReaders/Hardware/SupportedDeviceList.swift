import FPCore
import FoundationEssentials

/// libfprint's own list of the USB readers it knows, read from the hwdb file it
/// installs (`60-autosuspend-libfprint-2.hwdb`): supported ids grouped by driver,
/// then, after `# Known unsupported devices`, ids it knows but cannot drive.
public struct SupportedDeviceList: Sendable, Hashable {
    /// A supported id and the driver that drives it.
    public struct Entry: Sendable, Hashable {
        /// The USB vendor and product id.
        public let id: USBDeviceID
        /// The libfprint driver for it.
        public let driver: String
    }

    /// Every supported id with its driver, in file order.
    public let supported: [Entry]
    /// Ids libfprint lists as known but unsupported.
    public let unsupported: [USBDeviceID]
    /// Where the list was read from.
    public let path: String

    /// Where libfprint installs the file (the first that exists is used).
    public static let defaultPaths = [
        "/usr/lib/udev/hwdb.d/60-autosuspend-libfprint-2.hwdb",
        "/lib/udev/hwdb.d/60-autosuspend-libfprint-2.hwdb",
        "/usr/local/lib/udev/hwdb.d/60-autosuspend-libfprint-2.hwdb",
    ]

    /// Loads the list from `path`, or from the first of ``defaultPaths`` that exists.
    public static func load(path: String? = nil) throws(ReaderError) -> SupportedDeviceList {
        let candidates = path.map { [$0] } ?? defaultPaths
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }),
              let data = FileManager.default.contents(atPath: found) else {
            throw .general("libfprint's device list was not found (looked for \(candidates.joined(separator: ", "))); "
                           + "is libfprint-2-2 installed?")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: found)
    }

    /// Parses the hwdb text. Fails, naming the line, on an id it cannot read.
    public static func parse(_ text: String, path: String) throws(ReaderError) -> SupportedDeviceList {
        var supported: [Entry] = []
        var unsupported: [USBDeviceID] = []
        var driver: String?
        var inUnsupported = false
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("# Supported by libfprint driver ") {
                driver = String(line.dropFirst("# Supported by libfprint driver ".count)).trimmed
                inUnsupported = false
            } else if line.hasPrefix("# Known unsupported devices") {
                inUnsupported = true
                driver = nil
            } else if line.hasPrefix("usb:") {
                guard let id = usbID(line) else {
                    throw .general("\(path):\(number + 1): cannot read the USB id in '\(line)'")
                }
                if inUnsupported {
                    unsupported.append(id)
                } else if let driver {
                    supported.append(Entry(id: id, driver: driver))
                } else {
                    throw .general("\(path):\(number + 1): a USB id outside any driver section")
                }
            }
        }
        return SupportedDeviceList(supported: supported, unsupported: unsupported, path: path)
    }

    /// This list with the ids of a newer libfprint added (``parseNewerIDs(_:path:)``): the packages
    /// are built on the older release and installed on both, and a reader that only the newer
    /// release's libfprint drives still needs its rule there. An id already supported keeps its
    /// entry; an added id is no longer counted as unsupported.
    public func adding(_ newer: [Entry], from source: String) -> SupportedDeviceList {
        let known = Set(supported.map(\.id))
        let added = newer.filter { !known.contains($0.id) }
        let addedIDs = Set(added.map(\.id))
        return SupportedDeviceList(supported: supported + added, unsupported: unsupported.filter { !addedIDs.contains($0) },
                                   path: added.isEmpty ? path : path + " and " + source)
    }

    /// `udev/libfprint-newer-ids.txt`: one `vvvv:pppp driver` a line, `#` comments. Fails, naming
    /// the line, on anything else.
    public static func parseNewerIDs(_ text: String, path: String) throws(ReaderError) -> [Entry] {
        var entries: [Entry] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = (raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmed
            guard !line.isEmpty else { continue }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 2, let id = USBDeviceID(String(fields[0])),
                  fields[1].utf8.allSatisfy({ (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5f }) else {
                throw .general("\(path):\(number + 1): expected 'vvvv:pppp driver', got '\(line.prefix(60))'")
            }
            entries.append(Entry(id: id, driver: String(fields[1])))
        }
        return entries
    }

    /// The driver for `id`, if libfprint supports it.
    public func driver(for id: USBDeviceID) -> String? {
        supported.first { $0.id == id }?.driver
    }

    /// Whether libfprint lists `id` as known but unsupported.
    public func isKnownUnsupported(_ id: USBDeviceID) -> Bool {
        unsupported.contains(id)
    }

    /// `usb:v04F3p0C26*` → 04f3:0c26.
    private static func usbID(_ line: Substring) -> USBDeviceID? {
        let body = line.dropFirst("usb:".count)
        guard body.count >= 10, body.first == "v", body.dropFirst(5).first == "p" else { return nil }
        let vendor = body.dropFirst().prefix(4), product = body.dropFirst(6).prefix(4)
        guard let v = UInt16(vendor, radix: 16), let p = UInt16(product, radix: 16) else { return nil }
        return USBDeviceID(vendor: v, product: p)
    }
}
