import FPCore
import Foundation
import Testing
import TestSupport

/// The one way files are replaced (state files, captured images): whole or not at all.
struct FileReplacementTests {
    let directory = TemporaryDirectory()

    func replace(_ path: String, with text: String, names: @escaping () -> String) -> String? {
        Array(text.utf8).withUnsafeBytes { FileReplacement.replace(path, with: $0, mode: 0o600, temporaryName: names) }?.reason
    }

    @Test func aTakenTemporaryNameIsPassedOverAndLeftAlone() throws {
        let path = directory.file("file.json")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let taken = directory.file("file.json.tmp-taken")
        try "someone else's".write(toFile: taken, atomically: false, encoding: .utf8)
        var offered = [taken, directory.file("file.json.tmp-free")][...]
        #expect(replace(path, with: "new") { offered.popFirst()! } == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try String(contentsOfFile: taken, encoding: .utf8) == "someone else's")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["file.json", "file.json.tmp-taken"])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aFailureNamesItsCauseAndLeavesTheOldFile() throws {
        let path = directory.file("file.json")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let failure = replace(path, with: "new") { directory.file("missing-directory/file.json.tmp") }
        #expect(failure == "No such file or directory")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        // Renaming over a directory fails after the temporary file is written: it is removed.
        let folder = try directory.privateDirectory("a-directory")
        try "inside".write(toFile: folder + "/x", atomically: false, encoding: .utf8)
        #expect(replace(folder, with: "new") { directory.file("a-directory.tmp") } != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["a-directory", "file.json"])
    }

    @Test func everyByteReachesAPipeThatTakesThemInPieces() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let received = Task.detached { () -> [UInt8] in
            var all: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count <= 0 { return all }
                all += buffer[0..<count]
            }
        }
        #expect(bytes.withUnsafeBytes { FileDescriptorWrite.all($0, to: writer) } == nil)
        close(writer)
        #expect(await received.value == bytes)
        close(reader)
    }

    @Test func aFullDeviceIsNamed() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let full = [UInt8](repeating: 1, count: 10).withUnsafeBytes { FileDescriptorWrite.all($0, to: fd) }
        #expect(full?.reason == "No space left on device" && full?.errno == .noSpace)
    }
}
