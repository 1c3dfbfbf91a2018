import Foundation

/// The demo's finger (`--demo-touch-socket`): buttons on the page that play a touch on
/// libfprint's virtual readers through their socket, so that a newcomer sees the kiosk work
/// without a reader. `virtual_device` takes `SCAN NAME`; `virtual_image` takes the image
/// `NAME.pgm` from `--demo-prints`. Never in production: the option is hidden.
package struct DemoTouch: Sendable {
    package let socket: String
    /// A directory of `NAME.pgm` images (virtual_image); nil for virtual_device's `SCAN NAME`.
    package let prints: String?
    package let fingers: [String]

    package init(socket: String, prints: String?, fingers: [String]) {
        self.socket = socket
        self.prints = prints
        self.fingers = fingers
    }

    /// Plays `finger`'s touch. Throws words when it cannot.
    package func touch(_ finger: String) async throws {
        guard fingers.contains(finger) else { throw DemoTouchError("no demo finger named \(finger)") }
        let bytes: [UInt8]
        if let prints {
            bytes = try Self.frame(image: prints + "/" + finger + ".pgm")
        } else {
            // One command per connection, no newline: a newline would be part of the id.
            bytes = Array("SCAN \(finger)".utf8)
        }
        let socket = socket
        try await Task.detached {
            let fd = try Self.connect(socket, within: 8)
            defer { close(fd) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard written > 0 else { throw DemoTouchError("the virtual reader stopped reading") }
                offset += written
            }
            if prints == nil {
                // virtual_device answers at the end of the command, then closes.
                shutdown(fd, Int32(SHUT_WR))
                var buffer = [UInt8](repeating: 0, count: 256)
                while read(fd, &buffer, buffer.count) > 0 {}
            } else {
                // virtual_image reads a frame only while a scan runs, and a closed connection
                // is a finger lifted: keep it open while the reader takes the frame.
                usleep(3_000_000)
            }
        }.value
    }

    /// A `virtual_image` frame: width and height as native int32, then the grey pixels.
    static func frame(image path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw DemoTouchError("cannot read \(path)") }
        let bytes = [UInt8](data)
        var fields: [Int] = [], index = 2
        guard bytes.starts(with: Array("P5".utf8)) else { throw DemoTouchError("\(path) is not a binary PGM") }
        while fields.count < 3, index < bytes.count {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                continue
            }
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard let value = Int(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                throw DemoTouchError("\(path) has a damaged header")
            }
            fields.append(value)
        }
        index += 1
        let (width, height) = (fields[0], fields[1])
        guard fields.count == 3, index + width * height <= bytes.count else { throw DemoTouchError("\(path) is cut short") }
        var frame: [UInt8] = []
        withUnsafeBytes(of: Int32(width)) { frame += $0 }
        withUnsafeBytes(of: Int32(height)) { frame += $0 }
        return frame + bytes[index..<(index + width * height)]
    }

    /// Connects, trying again for `seconds`: a resting kiosk's reader is closed (its socket
    /// gone) until the wake that goes with the touch has it armed again.
    private static func connect(_ path: String, within seconds: Double) throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do { return try connect(path) } catch {
                guard Date() < deadline else { throw error }
                usleep(100_000)
            }
        }
    }

    private static func connect(_ path: String) throws -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DemoTouchError("cannot make a socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw DemoTouchError("the virtual reader is not listening on \(path) (it listens while fpbridged holds it open)")
        }
        return fd
    }
}

/// Why a demo touch failed, in words.
package struct DemoTouchError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
