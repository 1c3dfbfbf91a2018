import Foundation

/// Reads `config.json` in the state directory: the policy numbers a site
/// wants to change. A missing file means every default.
public enum ConfigFile {
    public static func path(in directory: StateDirectory) -> String {
        directory.file("config.json")
    }

    public static func load<T: Decodable>(_ type: T.Type, from directory: StateDirectory) throws(StoreError) -> T? {
        try directory.checkRoot()
        let path = path(in: directory)
        guard let data = try AtomicFile.read(path) else { return nil }
        return try StateCoding.decode(type, from: data, path: path)
    }
}
