import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plays the finger for libfprint's virtual readers from the test process,
/// the way libfprint's own tests do: over the reader's Unix socket.
public enum VirtualReaderDriver {
    /// Connects, waiting up to `wait` seconds for the reader to create the socket (it does so at open).
    static func connect(_ path: String, wait: TimeInterval = 20) throws -> Int32 {
        let deadline = Date().addingTimeInterval(wait)
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 { return fd }
            close(fd)
            guard Date() < deadline else { throw DriverError(message: "no virtual reader listening on \(path)") }
            usleep(50_000)
        }
    }

    /// Whether a virtual reader listens on `path` now (one attempt, no wait): libfprint's
    /// virtual drivers listen only while their device is open.
    public static func isListening(_ path: String) -> Bool {
        guard let fd = try? connect(path, wait: 0) else { return false }
        close(fd)
        return true
    }

    /// Sends `virtual_device` commands, one connection each, reading each reply to EOF
    /// before the next (a new connection would otherwise drop the previous command).
    @discardableResult
    public static func send(_ path: String, _ commands: [String]) async throws -> [String] {
        try await blocking {
            var replies: [String] = []
            for command in commands {
                let fd = try connect(path)
                defer { close(fd) }
                _ = command.withCString { write(fd, $0, strlen($0)) }
                // End of command: without it the reader may wait for more before it answers.
                shutdown(fd, Int32(SHUT_WR))
                var reply = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 1024)
                while true {
                    let count = read(fd, &buffer, buffer.count)
                    if count <= 0 { break }
                    reply += buffer[0..<count]
                }
                replies.append(String(decoding: reply, as: UTF8.self))
            }
            return replies
        }
    }

    /// Sends PGM images to `virtual_image` on one connection, one frame every `pace` seconds.
    /// `lead`: the wait before the first frame, for the command to reach its first scan.
    public static func sendImages(_ path: String, _ images: [String], pace: TimeInterval = 0.6,
                                  lead: TimeInterval = 0.3) async throws {
        try await blocking {
            let fd = try connect(path)
            defer { close(fd) }
            usleep(useconds_t(lead * 1_000_000))
            for image in images {
                let (width, height, pixels) = try readPGM(image)
                var header = [Int32(width), Int32(height)]
                _ = header.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
                _ = pixels.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                usleep(useconds_t(pace * 1_000_000))
            }
            usleep(500_000)
        }
    }

    /// Plays `image` to `virtual_image` once for each scan of an `fpbridge enroll` that
    /// `command` runs (it is handed the watcher for the command's stderr): the first frame once
    /// the command says the reader waits for the finger ("Enrolling …"), each next one once the
    /// previous stage is reported. A frame that reaches the reader before it captures is lost, and
    /// any fixed pace was too fast for a loaded machine somewhere (CI lost KioskServiceTests'
    /// enrollments at a 2 s lead for the passcode's scrypt, and then at every pace it tried).
    public static func playEnrollment(_ path: String, image: String, scans: Int = 5,
                                      running command: @escaping @Sendable (@escaping @Sendable (String) -> Void) async throws -> CommandResult)
        async throws -> CommandResult {
        let waiting = PromptSignal("Enrolling "), stages = PromptSignal(" done")
        let sawWaiting = waiting.watcher(), sawStage = stages.watcher()
        async let result = command { text in
            sawWaiting(text)
            sawStage(text)
        }
        for scan in 0..<scans {
            // Bounds only: a command that ends or fails sooner is reported by its result.
            guard await (scan == 0 ? waiting : stages).next(within: 60) else { break }
            // Real time, 0.3 s: the reader arms its capture just after it says so, and nothing says when it has.
            try await sendImages(path, [image], pace: 0.2, lead: 0.3)
        }
        let value = try await result
        waiting.finish()
        stages.finish()
        return value
    }

    /// Puts a finger on `virtual_image` and keeps it there: automatic finger reporting off, the
    /// finger reported present, then `image` (none: a finger the reader never captures). The
    /// finger stays until ``HeldFinger/lift()``. `lead`: the wait before the first frame, for the
    /// operation to start (frames are read only while one runs).
    public static func holdFinger(_ path: String, image: String?, lead: TimeInterval = 0.3) async throws -> HeldFinger {
        try await blocking {
            let fd = try connect(path)
            usleep(useconds_t(lead * 1_000_000))
            var headers: [Int32] = [-3, 0, -4, 1]
            _ = headers.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if let image {
                // The reader captures once the present finger moved it to capturing.
                usleep(300_000)
                let (width, height, pixels) = try readPGM(image)
                var header = [Int32(width), Int32(height)]
                _ = header.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                _ = pixels.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            return HeldFinger(fd: fd)
        }
    }

    /// A finger kept on `virtual_image` by ``holdFinger(_:image:lead:)``.
    public final class HeldFinger: @unchecked Sendable {
        private let lock = NSLock()
        private var fd: Int32

        init(fd: Int32) { self.fd = fd }

        deinit { close(fd) }

        /// Lifts the finger and gives automatic finger reporting back; idempotent.
        public func lift() async throws {
            let fd = lock.withLock { () -> Int32 in
                defer { self.fd = -1 }
                return self.fd
            }
            guard fd >= 0 else { return }
            try await blocking {
                var headers: [Int32] = [-4, 0, -3, 1]
                _ = headers.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                // Closing at once could drop the lift before the reader read it.
                usleep(500_000)
                close(fd)
            }
        }
    }

    /// Waits until a virtual reader listens on `path` (it starts to at open).
    public static func waitForListener(_ path: String, wait: TimeInterval = 20) async throws {
        try await blocking { close(try connect(path, wait: wait)) }
    }

    /// Tells `virtual_image` the reader was pulled out, keeping the connection `linger` seconds.
    public static func unplugImageReader(_ path: String, linger: TimeInterval = 0.5) async throws {
        try await blocking {
            let fd = try connect(path)
            defer { close(fd) }
            var header: [Int32] = [-5, 0]
            _ = header.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
            usleep(useconds_t(linger * 1_000_000))
        }
    }

    static func readPGM(_ path: String) throws -> (Int, Int, [UInt8]) {
        guard let data = FileManager.default.contents(atPath: path) else { throw DriverError(message: "cannot read \(path)") }
        let bytes = [UInt8](data)
        var fields: [String] = []
        var index = 0
        while fields.count < 4 {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
            if bytes[index] == UInt8(ascii: "#") {
                while bytes[index] != 0x0A { index += 1 }
                continue
            }
            let start = index
            while !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09) { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields[0] == "P5", let width = Int(fields[1]), let height = Int(fields[2]) else {
            throw DriverError(message: "\(path) is not a binary PGM")
        }
        return (width, height, Array(bytes[index..<(index + width * height)]))
    }

    public struct DriverError: Error, CustomStringConvertible {
        public let message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }
}
