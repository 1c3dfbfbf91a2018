/// Which reader to use, as `--reader` or `FPBRIDGE_READER` spell it:
/// `auto`, `libfprint`, `libfprint:DRIVER`, `fake` or `fake:SCRIPTFILE`.
public enum ReaderSelection: Sendable, Hashable, CustomStringConvertible {
    /// The first reader libfprint finds.
    case auto
    /// The first libfprint reader, or the first with the given driver id.
    case libfprint(driver: String?)
    /// The fake reader, playing the given script (none: a reader with no events).
    case fake(scriptPath: String?)

    /// Parses a `--reader` value.
    public init(parsing text: String) throws(ReaderError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let argument = parts.count > 1 ? parts[1] : nil
        switch parts[0] {
        case "auto" where argument == nil: self = .auto
        case "libfprint": self = .libfprint(driver: argument.flatMap { $0.isEmpty ? nil : $0 })
        case "fake": self = .fake(scriptPath: argument.flatMap { $0.isEmpty ? nil : $0 })
        default:
            throw ReaderError.invalidSelection(
                "unknown reader '\(text)'; use auto, libfprint, libfprint:DRIVER, fake or fake:SCRIPTFILE")
        }
    }

    /// The selection as `--reader` spells it.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .libfprint(nil): "libfprint"
        case .libfprint(let driver?): "libfprint:\(driver)"
        case .fake(nil): "fake"
        case .fake(let path?): "fake:\(path)"
        }
    }

    /// The readers this selection can see, unopened.
    public func candidates() async throws -> [any FingerprintReader] {
        switch self {
        case .fake(let path):
            let script = try path.map { path throws(ReaderError) in try FakeScript.load(path: path) } ?? FakeScript()
            return [FakeReader(script: script)]
        case .auto, .libfprint(nil):
            return await LibfprintReader.all()
        case .libfprint(let driver?):
            var matching: [any FingerprintReader] = []
            for reader in await LibfprintReader.all() where await reader.info.identity.driver == driver {
                matching.append(reader)
            }
            return matching
        }
    }

    /// The one reader to use, unopened; fails with ``ReaderError/noReader(_:)`` when there is none.
    public func reader() async throws -> any FingerprintReader {
        guard let first = try await candidates().first else {
            switch self {
            case .libfprint(let driver?):
                throw ReaderError.noReader("no libfprint reader with driver '\(driver)' was found")
            default:
                throw ReaderError.noReader(
                    "no fingerprint reader was found (is one plugged in, and may this user open it?); "
                    + "the fake reader (FPBRIDGE_READER=fake) works without hardware")
            }
        }
        return first
    }
}

extension ReaderSelection {
    /// The readers this selection sees now, then each one plugged in or pulled out,
    /// until the consumer stops. The fake reader is always present and never unplugged.
    public func watch() async throws -> AsyncStream<ReaderChange> {
        switch self {
        case .fake:
            let readers = try await candidates()
            var infos: [ReaderInfo] = []
            for reader in readers { infos.append(await reader.info) }
            let (stream, continuation) = AsyncStream<ReaderChange>.makeStream()
            for info in infos { continuation.yield(.present(info)) }
            // The continuation is kept by the stream's termination handler, so the stream stays open.
            continuation.onTermination = { _ in _ = continuation }
            return stream
        case .auto, .libfprint(nil):
            return LibfprintReader.watch()
        case .libfprint(let driver?):
            return LibfprintReader.watch().filtered(driver: driver)
        }
    }
}

private extension AsyncStream where Element == ReaderChange {
    /// Only the changes of readers with the given driver.
    func filtered(driver: String) -> AsyncStream<ReaderChange> {
        let (stream, continuation) = AsyncStream<ReaderChange>.makeStream()
        let task = Task {
            for await change in self {
                let changeDriver = switch change {
                case .present(let info), .added(let info), .changed(let info): info.identity.driver
                case .removed(let identity): identity.driver
                }
                if changeDriver == driver { continuation.yield(change) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
