import FoundationEssentials

/// Reads `config.json` in the state directory: the policy numbers a site
/// wants to change. A missing file means every default.
public enum ConfigFile {
    /// The path of `config.json` in `directory`.
    public static func path(in directory: StateDirectory) -> String {
        directory.file("config.json")
    }

    /// Decodes `config.json` as `type`; nil when the file does not exist.
    /// - Throws: ``StoreError/damaged(path:reason:)`` for a file that cannot be read or decoded,
    ///   ``StoreError/unsafeDirectory(path:reason:fix:)`` for an unsafe state directory.
    public static func load<T: Decodable>(_ type: T.Type, from directory: StateDirectory) throws(StoreError) -> T? {
        try directory.checkRoot()
        let path = path(in: directory)
        guard let data = try AtomicFile.read(path) else { return nil }
        return try StateCoding.decode(type, from: data, path: path)
    }
}
