/// One test at a time on this process's `virtual_device`. Suites run in parallel and every
/// test target shares the process, so two tests playing fingers on the one device took each
/// other's touches (and libfprint aborted the process on an interleaved `SLEEP`).
actor InProcessDeviceLease {
    static let shared = InProcessDeviceLease()

    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()  // still held, now by the next test
        }
    }
}

extension InProcessLibfprint {
    /// Runs `body` as the only test using the in-process `virtual_device` (see ``deviceSocket``).
    public static func withDevice<T>(_ body: () async throws -> T) async throws -> T {
        prepare()
        await InProcessDeviceLease.shared.acquire()
        do {
            let result = try await body()
            await InProcessDeviceLease.shared.release()
            return result
        } catch {
            await InProcessDeviceLease.shared.release()
            throw error
        }
    }
}
