@testable import FPReaders
import Foundation
import Testing

/// Nothing waits on the GLib loop thread (issue 41): every `_sync` GLib/GIO call goes through
/// ``GLibBlocking``, which stops a debug build when one runs on that thread.
@Suite struct LoopBlockingTests {
    /// The sources under Sources/, relative to the repository.
    private static func sources() throws -> [(path: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let top = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: top, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            found.append((String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        return found
    }

    @Test func noSyncGLibCallOutsideTheWrapper() throws {
        let sources = try Self.sources()
        #expect(sources.count > 100, "the sources were found")
        let offending = sources.filter { $0.path != "Sources/FPReaders/Libfprint/GLibBlocking.swift" }.flatMap { source in
            source.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                // `name_sync(`: a call of a waiting GLib/GIO function.
                .filter { $0.element.contains(/[A-Za-z0-9]_sync\(/) }
                .map { "\(source.path):\($0.offset + 1): \($0.element.trimmingCharacters(in: .whitespaces))" }
        }
        #expect(offending.isEmpty, "a _sync GLib call outside GLibBlocking (use the asynchronous form on the loop):\n\(offending.joined(separator: "\n"))")
    }

    @Test func everyWrappedSyncCallIsCheckedFirst() throws {
        let wrapper = try #require(try Self.sources().first { $0.path == "Sources/FPReaders/Libfprint/GLibBlocking.swift" })
        let calls = wrapper.text.matches(of: /([a-z0-9_]+_sync)\(/).map { String($0.output.1) }
        #expect(!calls.isEmpty)
        for call in calls {
            #expect(wrapper.text.contains("checkOffLoop(\"\(call)\")"), "\(call) is made without checkOffLoop first")
        }
    }

    @Test func aSyncCallOffTheLoopIsAllowed() {
        #expect(!GLibBlocking.isLoopThread)
        GLibBlocking.checkOffLoop("g_test_sync")
        if case .failure(let problem) = GLibBlocking.systemBusAddress() { Issue.record("no system bus address: \(problem)") }
    }

    #if DEBUG
    @Test func aSyncCallOnTheLoopStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            await Task { @GLibLoop in GLibBlocking.checkOffLoop("g_test_sync") }.value
        }
    }
    #endif
}
