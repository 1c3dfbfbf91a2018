import SystemPackage

/// The two path operations the store needs, on swift-system's `FilePath` (what
/// `NSString`'s path methods did, without the rest of Foundation).
enum StatePath {
    /// The directory that holds `path`: "/a/b" gives "/a", "/a" gives "/", "a" gives "".
    static func parent(of path: String) -> String {
        FilePath(path).removingLastComponent().string
    }

    /// The last component of `path`: "/a/b" gives "b".
    static func name(of path: String) -> String {
        FilePath(path).lastComponent?.string ?? ""
    }
}
