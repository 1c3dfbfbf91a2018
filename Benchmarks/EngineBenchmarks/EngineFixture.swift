import FPAuthentication
import FPCore
import FPReaders
import FPStore
import FoundationEssentials
import Glibc

/// A state directory made for the benchmarks: one user with a passcode and a print on the
/// fake reader, and `galleryUsers` more users with a print each (the identify gallery).
/// Made again for each benchmark (the library's set-up hook runs before each one).
final class EngineFixture: Sendable {
    let state: StateDirectory
    let configuration: AuthConfiguration
    let galleryUsers: Int
    /// Decoded print files kept as fpbridged keeps them, filled once by the set-up.
    let printCache = PrintFileCache()

    init(galleryUsers: Int) async throws {
        var template = Array("/tmp/fpbridge-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FixtureError("mkdtemp: \(String(cString: strerror(errno)))") }
        state = StateDirectory(path: String(cString: made) + "/state")
        guard mkdir(state.path, 0o700) == 0 else { throw FixtureError("mkdir \(state.path): \(String(cString: strerror(errno)))") }
        // The defaults a user gets (scrypt N=32768 included): the numbers are the product's.
        configuration = AuthConfiguration()
        self.galleryUsers = galleryUsers
        try await setUp()
    }

    /// A context for `user` on a fake reader that plays `script`; `cache` as fpbridged keeps one.
    func context(_ script: String, user: String = "alice", cache: PrintFileCache? = nil) async throws -> AuthenticationContext {
        let reader = FakeReader(script: try FakeScript.parse(script))
        try await reader.open()
        var environment = AuthEnvironment(user: user, reader: reader, stateDirectory: state, configuration: configuration)
        environment.printCache = cache
        return AuthenticationContext(environment: environment)
    }

    private func setUp() async throws {
        let noReader = AuthEnvironment(user: "alice", reader: nil, stateDirectory: state, configuration: configuration)
        try await AuthenticationContext(environment: noReader).passcode.set(Passcode("2468"))
        let enroll = try await context(String(repeating: "scan alice-1\n", count: 5))
        for try await _ in enroll.enroll(.rightIndex, prompt: ListedPasscodes([Passcode("2468")])) {}
        // The gallery: copies of alice's print under other names. The fake reader matches by
        // the id inside a print, so a scan of alice-1 matches; what identify costs before the
        // match, reading and checking every user's file, does not depend on what the files hold.
        let store = PrintStore(directory: state)
        guard let print = try store.prints(user: "alice", reader: nil).first else { throw FixtureError("alice's print was not stored") }
        for index in 0..<galleryUsers {
            var copy = print
            copy.user = "user\(index)"
            try store.save(copy)
        }
        _ = try await context("scan alice-1", cache: printCache).identify(reason: "filling the cache")
    }

    deinit {
        // The temporary directory above the state directory, and everything in it.
        let parent = String(state.path.dropLast("/state".count))
        _ = try? FileManager.default.removeItem(atPath: parent)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
