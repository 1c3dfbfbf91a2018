import FPAuthentication
import FPReaders
import FPStore
import Foundation

/// A state directory made for the benchmarks: one user with a passcode and a print on the
/// fake reader, and `galleryUsers` more users with a print each (the identify gallery).
/// Made again for each benchmark (the library's set-up hook runs before each one) and
/// removed by `remove()`, which the teardown hook and a failure call.
final class EngineFixture: Sendable {
    /// The temporary directory the state directory lives in.
    let root: String
    let state: StateDirectory
    let configuration: AuthConfiguration
    /// Decoded print files kept as fpbridged keeps them, filled once by the set-up.
    let printCache = PrintFileCache()

    init(galleryUsers: Int) async throws {
        root = FileManager.default.temporaryDirectory.path + "/fpbridge-engine-bench-" + UUID().uuidString.prefix(8)
        state = StateDirectory(path: root + "/state")
        // The defaults a user gets (scrypt N=32768 included): the numbers are the product's.
        configuration = AuthConfiguration()
        do {
            try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try await setUp(galleryUsers: galleryUsers)
        } catch {
            remove()
            throw error
        }
    }

    /// A context for `user` on a fake reader that plays `script`; `cache` as fpbridged keeps one.
    func context(_ script: String, user: String = "alice", cache: PrintFileCache? = nil) async throws -> AuthenticationContext {
        let reader = FakeReader(script: try FakeScript.parse(script))
        try await reader.open()
        var environment = AuthEnvironment(user: user, reader: reader, stateDirectory: state, configuration: configuration)
        environment.printCache = cache
        return AuthenticationContext(environment: environment)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func setUp(galleryUsers: Int) async throws {
        let noReader = AuthEnvironment(user: "alice", reader: nil, stateDirectory: state, configuration: configuration)
        try await AuthenticationContext(environment: noReader).passcode.set(Passcode("2468"))
        let enroll = try await context(String(repeating: "scan alice-1\n", count: 5))
        for try await _ in enroll.enroll(.rightIndex, prompt: ListedPasscodes([Passcode("2468")])) {}
        try copyPrint(to: (0..<galleryUsers).map { "user\($0)" })
        // Identify passes over a damaged file without a word: make sure every copy reads.
        let readable = try PrintStore(directory: state).users(reader: ReaderIdentity(driver: "fake", deviceID: "0")).count
        guard readable == galleryUsers + 1 else {
            throw FixtureError("\(readable) of \(galleryUsers + 1) users' print files read back")
        }
        _ = try await context("scan alice-1", cache: printCache).identify(reason: "filling the cache")
    }

    /// The gallery: alice's print file copied to other users, its "user" field changed to
    /// theirs (a file must name the user its path names) and its print to a finger of theirs
    /// (`USER-1` in the fake reader's format): one finger under many names would be nobody's
    /// under the 1:N rule (issue 50). A scan of alice-1 matches hers alone; what identify costs
    /// before the match, reading and checking every user's file, does not depend on the ids.
    private func copyPrint(to users: [String]) throws {
        let store = PrintStore(directory: state)
        guard let print = try store.prints(user: "alice", reader: nil).first else { throw FixtureError("alice's print was not stored") }
        let source = try store.path(user: "alice", reader: print.reader, finger: print.finger)
        guard var fields = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source))) as? [String: Any] else {
            throw FixtureError("\(source) is not a JSON object")
        }
        for user in users {
            fields["user"] = user
            fields["print"] = Data("FPBFAKE1:\(user)-1".utf8).base64EncodedString()
            let path = try store.path(user: user, reader: print.reader, finger: print.finger)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: path, contents: try JSONSerialization.data(withJSONObject: fields),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw FixtureError("could not write \(path)")
            }
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
