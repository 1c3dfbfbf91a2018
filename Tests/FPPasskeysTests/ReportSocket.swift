@testable import FPPasskeys
import Foundation
import TestSupport

/// The fast tier's stand-in for `/dev/uhid`: a Unix SOCK_SEQPACKET socket on which a host
/// program (Tests/Helpers/fido2-host.py) sends and receives CTAPHID's 64-byte reports, one a
/// packet, as it would through `/dev/hidraw*`. Test-only: a socket that acted for whoever
/// connects would be a door with no presence rule.
final class ReportSocket: Sendable {
    let path: String
    private let listener: Int32

    init(path: String) throws {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 1) == 0 else {
            close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(listener) }

    /// Accepts one host and carries reports both ways until it closes its end; then the
    /// device is closed.
    func serve(_ device: CTAPHIDDevice) async throws {
        let listener = listener
        let connection = try await blocking { () throws -> Int32 in
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            return connection
        }
        defer { close(connection) }
        let writer = Task {
            for await report in device.reports {
                _ = report.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
        // Reports are read on a thread of their own and handed to the device in order.
        let (incoming, feed) = AsyncStream.makeStream(of: [UInt8].self)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                feed.yield(Array(buffer[0..<count]))
            }
            feed.finish()
        }.start()
        for await report in incoming { await device.receive(report) }
        await device.close()
        await writer.value
    }
}
