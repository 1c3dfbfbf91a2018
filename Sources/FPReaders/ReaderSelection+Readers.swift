import FPCore

extension ReaderSelection {
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
