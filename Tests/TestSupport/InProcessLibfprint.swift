import Foundation

/// libfprint reads its environment once per process, when its context is made, and
/// every test target runs in one process. Any test that uses libfprint in-process
/// calls ``prepare()`` first, so that whichever comes first sets up the same readers:
/// a `virtual_device_storage` and a plain `virtual_device`.
public enum InProcessLibfprint {
    private static let sockets: (storage: String, device: String) = {
        let storage = TemporaryDirectory.socketPath(), device = TemporaryDirectory.socketPath()
        setenv("FP_VIRTUAL_DEVICE_STORAGE", storage, 1)
        setenv("FP_VIRTUAL_DEVICE", device, 1)
        setenv("FP_DEVICE_EMULATION", "1", 1)
        return (storage, device)
    }()

    @discardableResult
    public static func prepare() -> (storage: String, device: String) { sockets }

    public static var storageSocket: String { sockets.storage }
    public static var deviceSocket: String { sockets.device }
}
