#if canImport(Glibc)
import Glibc
#endif

/// A passcode as typed, held only as long as it is needed.
///
/// The bytes live in memory this object owns and are wiped when it goes away,
/// so that a passcode does not linger in the heap for a core dump or a swap
/// file to find. Build one from bytes read from the terminal; the string
/// initialiser is for scripts and tests, whose strings are not wiped.
public final class Passcode: Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    // Written once in init, wiped once in deinit: immutable in between, hence
    // safe to share, which the compiler cannot see through a raw buffer.
    nonisolated(unsafe) private let storage: UnsafeMutableRawBufferPointer

    /// Takes the bytes (UTF-8) and wipes the caller's copy.
    public init(wiping bytes: inout [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.storage = storage
        count = bytes.count
        bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
        bytes.removeAll()
    }

    /// A passcode with the UTF-8 bytes of `string`.
    public convenience init(_ string: String) {
        var bytes = Array(string.utf8)
        self.init(wiping: &bytes)
    }

    /// A passcode written as a literal (tests and demos).
    public convenience init(stringLiteral value: String) {
        self.init(value)
    }

    deinit {
        if let base = storage.baseAddress { explicit_bzero(base, storage.count) }
        storage.deallocate()
    }

    /// The number of bytes (UTF-8).
    public let count: Int

    /// True for an empty entry, which the engine never counts as a guess.
    public var isEmpty: Bool { count == 0 }

    /// The number of characters as a person counts them (Unicode scalars).
    public var length: Int {
        withUnsafeBytes { $0.reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 } }
    }

    /// Lends the UTF-8 bytes without copying them.
    public func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// Never the passcode itself, so that logging one by mistake shows nothing.
    public var description: String { "Passcode(\(count) bytes)" }

    /// Whether two passcodes are the same bytes (compared in constant time).
    public func isEqual(to other: Passcode) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in zip(mine, theirs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0 }
        }
    }
}
