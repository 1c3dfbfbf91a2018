import FPCore
import FoundationEssentials
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A HID device made through the kernel's `/dev/uhid`: it appears to the host as
/// `/dev/hidraw*` (a USB security key, to libfido2 and browsers) from ``open(path:identity:descriptor:)``
/// until ``close()``. What the host writes comes out of ``events``; ``send(_:)`` hands it a report.
///
/// The kernel's events are read on a thread of its own (never one of Swift's cooperative
/// threads, which a blocked read would take from every task), woken by a pipe to stop. Writes
/// and the descriptor's close are serialized, so that no report is ever written to a
/// descriptor number the thread has closed and the system has given to something else.
package final class UHIDDevice: Sendable {
    /// What the kernel says, in order; finishes when the device is closed or the kernel fails it.
    package let events: AsyncStream<UHIDEvent>
    private let state: Mutex<Descriptors>

    /// The descriptors, each closed once and under the lock: the device by ``close()``, the
    /// pipe's read end by whichever of the thread and ``close()`` comes last.
    private struct Descriptors {
        var device: FileDescriptor?
        var wakeWrite: FileDescriptor?
        var wakeRead: FileDescriptor?
        var reading = true
    }

    private init(device: FileDescriptor, pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor), events: AsyncStream<UHIDEvent>) {
        state = Mutex(Descriptors(device: device, wakeWrite: pipe.writeEnd, wakeRead: pipe.readEnd))
        self.events = events
    }

    /// A new device named by `identity` with the HID report `descriptor`. Fails with the
    /// system's error when `/dev/uhid` cannot be opened (no uhid in the kernel: no module, a
    /// container without the node) or refuses the device.
    package static func open(path: FilePath = "/dev/uhid", identity: UHIDEvent.Identity,
                             descriptor: [UInt8]) throws(UHIDFailure) -> UHIDDevice {
        let device: FileDescriptor
        do { device = try FileDescriptor.open(path, .readWrite, options: [.closeOnExec]) } catch {
            throw UHIDFailure("cannot open \(path): \(error)")
        }
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            try writeWhole(UHIDEvent.create(identity, descriptor: descriptor), to: device)
            pipe = try FileDescriptor.pipe()
        } catch {
            try? device.close()  // the failure is already the answer; nothing was made
            throw UHIDFailure("\(path) refused the device \(identity.name): \(error)")
        }
        let (events, feed) = AsyncStream.makeStream(of: UHIDEvent.self)
        let made = UHIDDevice(device: device, pipe: pipe, events: events)
        DetachedThread.start(name: "uhid") { made.readEvents(device, stop: pipe.readEnd, into: feed) }
        return made
    }

    /// Hands the host one report (INPUT2). Fails when the device is closed or the kernel refuses it.
    package func send(_ report: [UInt8]) throws(UHIDFailure) {
        try state.withLock { state throws(UHIDFailure) in
            guard let device = state.device else { throw UHIDFailure("the device is closed") }
            do { try Self.writeWhole(UHIDEvent.input(report), to: device) } catch {
                throw UHIDFailure("the kernel refused a report: \(error)")
            }
        }
    }

    /// Answers the kernel's GET_REPORT or SET_REPORT (a host asking for a feature report): this
    /// device has none, and a request left unanswered holds the host's call for 5 s.
    package func refuse(_ request: UHIDEvent) throws(UHIDFailure) {
        guard let refusal = UHIDEvent.refuse(request) else { return }
        try state.withLock { state throws(UHIDFailure) in
            guard let device = state.device else { throw UHIDFailure("the device is closed") }
            do { try Self.writeWhole(refusal, to: device) } catch {
                throw UHIDFailure("the kernel refused an answer to \(request): \(error)")
            }
        }
    }

    /// The device goes (DESTROY: every open `/dev/hidraw*` of it fails from then on) and
    /// ``events`` ends. Closing twice does nothing more.
    package func close() {
        state.withLock { state in
            guard let device = state.device else { return }
            // Closing the descriptor destroys the device as well; DESTROY first says it in order.
            try? Self.writeWhole(UHIDEvent.destroy, to: device)
            try? device.close()
            state.device = nil
            if state.reading {
                _ = try? state.wakeWrite?.writeAll([1])  // the pipe is empty and its reader open: it cannot fail
            } else {
                try? state.wakeRead?.close()
                state.wakeRead = nil
            }
            try? state.wakeWrite?.close()
            state.wakeWrite = nil
        }
    }

    private func readEvents(_ fd: FileDescriptor, stop: FileDescriptor, into feed: AsyncStream<UHIDEvent>.Continuation) {
        defer {
            feed.finish()
            state.withLock { state in
                state.reading = false
                if state.device == nil {
                    try? state.wakeRead?.close()
                    state.wakeRead = nil
                }
            }
        }
        var buffer = [UInt8](repeating: 0, count: UHIDEvent.size)
        while true {
            var polled = [pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: stop.rawValue, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&polled, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if polled[1].revents != 0 { return }
            // Read under the lock: once close() has closed the device its number may be another file's.
            let count: Int? = state.withLock { state in
                guard state.device != nil else { return nil }
                return buffer.withUnsafeMutableBytes { try? fd.read(into: $0) }
            }
            guard let count, count > 0 else { return }
            if let event = UHIDEvent.decode(Array(buffer[0..<count])) { feed.yield(event) }
        }
    }

    private static func writeWhole(_ event: [UInt8], to fd: FileDescriptor) throws {
        // uhid takes an event in one write or refuses it (EINVAL): a short write is a failure.
        let written = try event.withUnsafeBytes { try fd.write($0, retryOnInterrupt: true) }
        guard written == event.count else { throw Errno.invalidArgument }
    }
}

/// Why a ``UHIDDevice`` could not be made or used.
package struct UHIDFailure: Error, CustomStringConvertible, Sendable {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
