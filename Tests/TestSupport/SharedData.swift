import Foundation

/// The project's shared test data (`../shared` beside the repository): fingerprint
/// images and recordings. It is never committed; tests that need it skip when it is
/// absent, except under CI (`CI=true`), where ``requiredButMissing`` fails a test.
public enum SharedData {
    public static let root: String? = {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            ProcessInfo.processInfo.environment["FPBRIDGE_SHARED_DIR"],
            packageRoot.deletingLastPathComponent().appendingPathComponent("shared").path,
        ].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/prints/whorl.pgm") }
    }()

    public static var available: Bool { root != nil }

    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    public static var requiredButMissing: Bool { isCI && !available }

    /// A print image from `prints/`.
    public static func print(_ name: String) -> String { root! + "/prints/\(name).pgm" }
}
