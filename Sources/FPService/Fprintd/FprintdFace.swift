import FPAuthentication
import FPReaders
import Foundation
import Logging
import Synchronization
import FPVocabulary

/// fprintd's D-Bus API served by fpbridged: `net.reactivated.Fprint` on the system bus, so that
/// the desktop's fingerprint clients (GNOME Settings, `pam_fprintd`, the `fprintd-*` tools) use
/// fpbridge's engine, counters and lockout without a change. A second front door of the same
/// service: the same readers, turns, state and sleep handling as the socket.
final class FprintdFace: Sendable {
    let service: ServiceConfiguration
    let readers: ServiceReaders
    let registry: OperationRegistry
    let printCaches: PrintCaches
    /// `serving`, `off`, or why the face is not on the bus; status reports it.
    let status = Locked<String>("not started")
    private let devices = Locked<[FprintdDevice]>([])
    private let bus = Locked<BusExport?>(nil)
    private let nextIndex = Atomic<Int>(0)
    /// When an idle claim yields to another user's (``ServiceConfiguration/claimYieldSeconds``).
    private let yield: ClaimYield

    /// `clock`: what a claim's idleness is measured on.
    init(service: ServiceConfiguration, readers: ServiceReaders, registry: OperationRegistry, printCaches: PrintCaches,
         clock: any Clock<Duration> = ContinuousClock()) {
        self.service = service
        self.readers = readers
        self.registry = registry
        self.printCaches = printCaches
        yield = ClaimYield(seconds: service.claimYieldSeconds, clock: clock)
    }

    /// Serves until the task is cancelled. Without a system bus, or with the name held by
    /// another process (fprintd), it says why in the log and in status, and the socket API
    /// goes on alone.
    func run(logger: Logger) async {
        let bus: BusExport
        do {
            bus = try await BusExport.connect(introspection: FprintdInterface.introspection,
                                              handler: { [self] call in Task { await self.dispatch(call) } },
                                              property: { [self] path, interface, name in self.property(path, interface, name) })
        } catch {
            give(up: "cannot use the system bus: \(error.message)", logger: logger)
            return
        }
        do {
            try await bus.register(path: FprintdInterface.managerPath, interface: FprintdInterface.manager)
            try await bus.register(path: FprintdInterface.rootPath, interface: FprintdInterface.objectManager)
        } catch {
            give(up: "cannot serve on the system bus: \(error.message)", logger: logger)
            await bus.stop()
            return
        }
        self.bus.withLock { $0 = bus }
        // The readers there now become objects before the name is taken: a client that finds
        // the name finds its devices.
        // Readers that cannot be listed now come as the watch below reports them.
        do {
            for reader in try await service.reader.candidates() { await add(await reader.info, bus: bus) }
        } catch {
            logger.warning("the readers present at start are not listed on the bus yet: \(error)")
        }
        guard await own(bus, logger: logger) else { return }
        let changes: AsyncStream<ReaderChange>
        do { changes = try await service.reader.watch() } catch {
            logger.warning("readers plugged in later are not followed on the bus: \(error)")
            return
        }
        await withTaskCancellationHandler {
            for await change in changes {
                switch change {
                case .present(let info), .added(let info): await add(info, bus: bus)
                case .removed(let identity): await remove(identity, bus: bus)
                case .changed(let info): await changed(info)
                }
            }
        } onCancel: {
            Task { [self] in await stop(bus) }
        }
    }

    /// Nothing reaches the bus after this: the face forgets it first, then closes it.
    private func stop(_ bus: BusExport) async {
        self.bus.withLock { $0 = nil }
        status.withLock { $0 = "stopped" }
        await bus.stop()
    }

    private func own(_ bus: BusExport, logger: Logger) async -> Bool {
        do {
            try await bus.own(FprintdInterface.busName)
            status.withLock { $0 = "serving" }
            logger.info("serving fprintd's D-Bus API as \(FprintdInterface.busName)")
            return true
        } catch {
            give(up: Self.ownershipRefused(error), logger: logger)
            self.bus.withLock { $0 = nil }
            await bus.stop()
            return false
        }
    }

    /// Why the name could not be taken, and what fixes it. A name held by another process is
    /// fprintd's to give back; a refusal by the bus's policy is not: dbus-daemon reads the
    /// policy's `user="fpbridge"` when the file appears, and a user created after that (a package
    /// or `make install` making the user once the file is in place) is "Unknown username" to it
    /// until the configuration is read again, whatever is done to fprintd.
    static func ownershipRefused(_ error: BusError) -> String {
        switch error.name {
        case "org.freedesktop.DBus.Error.AccessDenied":
            let user = Caller.name(of: geteuid()) ?? "uid \(geteuid())"
            return "\(error.message); the bus's policy does not let \(user) own it: install dbus/fpbridge-fprintd.conf "
                + "(the package and make install do), then make the bus read its configuration again "
                + "(sudo systemctl reload dbus) and restart fpbridged"
        default:
            return "\(error.message); mask fprintd (systemctl mask --now fprintd) or start fpbridged with --dbus off"
        }
    }

    private func give(up reason: String, logger: Logger) {
        status.withLock { $0 = "unavailable: \(reason)" }
        logger.warning("fprintd's D-Bus API is not served: \(reason)")
    }

    // MARK: - Objects

    private func add(_ info: ReaderInfo, bus: BusExport) async {
        guard !devices.withLock({ $0.contains { $0.info.identity == info.identity } }) else { return }
        let path = FprintdInterface.devicePathPrefix + String(nextIndex.add(1, ordering: .relaxed).oldValue)
        let device = FprintdDevice(path: path, info: info, yield: yield)
        do { try await bus.register(path: path, interface: FprintdInterface.device) } catch { return }
        devices.withLock { $0.append(device) }
        await bus.emit(path: FprintdInterface.rootPath, interface: FprintdInterface.objectManager, signal: "InterfacesAdded",
                       [.objectPath(path), .dictionary(key: "s", value: "a{sv}", [BusEntry(key: .string(FprintdInterface.device),
                                                                                           value: device.properties)])])
    }

    /// A reader's stage count or scan type changed: its properties follow, as fprintd's follow
    /// its device's, claimed or not.
    private func changed(_ info: ReaderInfo) async {
        guard let device = devices.withLock({ $0.first { $0.info.identity == info.identity } }) else { return }
        let names = device.state.withLock { state in
            var names: [FprintdProperty] = []
            if state.enrollStages != info.enrollmentStages { state.enrollStages = info.enrollmentStages; names.append(.numEnrollStages) }
            if state.scanType != info.scanType { state.scanType = info.scanType; names.append(.scanType) }
            return names
        }
        if !names.isEmpty { await propertiesChanged(device, names) }
    }

    private func remove(_ identity: ReaderIdentity, bus: BusExport) async {
        guard let device = devices.withLock({ list -> FprintdDevice? in
            guard let index = list.firstIndex(where: { $0.info.identity == identity }) else { return nil }
            return list.remove(at: index)
        }) else { return }
        // What ran on it ends by itself, libfprint reporting the disconnection, which its client
        // hears as such before the object goes (at most 3 s, then it is cancelled); the claim
        // goes with the object.
        if let running = device.state.withLock({ $0.running }), let task = running.task {
            // Real time (issue 41 §5 asked for a clock): a guard for libfprint's own report of the
            // disconnection, which comes from the reader in real time; FprintdHotPlugTests unplugs one.
            let deadline = Task {
                try? await Task.sleep(for: .seconds(3))
                if !Task.isCancelled { running.operation?.cancel(.system) }
            }
            await task.value
            deadline.cancel()
        }
        let holder = device.state.withLock { state in
            defer { state.holder = nil }
            return state.holder
        }
        // A claim being released gives its pin and watch up in its own Release.
        if let holder, !holder.releasing {
            await readers.pool.unpin(identity)
            await bus.unwatch(holder.watch)
        }
        await bus.unregister(path: device.path)
        await bus.emit(path: FprintdInterface.rootPath, interface: FprintdInterface.objectManager, signal: "InterfacesRemoved",
                       [.objectPath(device.path), .strings([FprintdInterface.device])])
    }

    func device(at path: String) -> FprintdDevice? {
        devices.withLock { $0.first { $0.path == path } }
    }

    private func property(_ path: String, _ interface: String, _ name: String) -> BusValue? {
        guard interface == FprintdInterface.device else { return nil }
        return FprintdProperty(rawValue: name).flatMap { device(at: path)?.property($0) }
    }

    /// Emits `PropertiesChanged` for the properties named, with their values now.
    func propertiesChanged(_ device: FprintdDevice, _ names: [FprintdProperty]) async {
        guard let bus = connection else { return }
        let changed = BusValue.properties(names.map { ($0.rawValue, device.property($0)) })
        await bus.emit(path: device.path, interface: FprintdInterface.properties, signal: "PropertiesChanged",
                       [.string(FprintdInterface.device), changed, .strings([])])
    }

    /// Emits a Device signal.
    func emit(_ device: FprintdDevice, _ signal: String, _ arguments: [BusValue]) async {
        guard let bus = connection else { return }
        await bus.emit(path: device.path, interface: FprintdInterface.device, signal: signal, arguments)
    }

    /// The bus while the face serves; nil once it stops.
    var connection: BusExport? { bus.withLock { $0 } }

    // MARK: - Calls

    private func dispatch(_ call: BusCall) async {
        do {
            let values = try await answer(call)
            await call.reply.values(values)
        } catch is Answered {
            return
        } catch let error as BusError {
            await call.reply.error(error)
        } catch {
            await call.reply.error(BusError(.internalError, "\(error)"))
        }
    }

    /// The out values of a call, or the error it answers; calls that answer from their own task
    /// (VerifyStart, EnrollStart) throw ``Answered``.
    private func answer(_ call: BusCall) async throws -> [BusValue] {
        switch (call.interface, call.method) {
        case (FprintdInterface.manager, "GetDevices"):
            return [.objectPaths(devices.withLock { $0.map(\.path) })]
        case (FprintdInterface.manager, "GetDefaultDevice"):
            guard let first = devices.withLock({ $0.first }) else { throw BusError(.noSuchDevice, "No devices available") }
            return [.objectPath(first.path)]
        case (FprintdInterface.objectManager, "GetManagedObjects"):
            let entries = devices.withLock { $0 }.map { device in
                BusEntry(key: .objectPath(device.path), value: .dictionary(
                    key: "s", value: "a{sv}", [BusEntry(key: .string(FprintdInterface.device), value: device.properties)]))
            }
            return [.dictionary(key: "o", value: "a{sa{sv}}", entries)]
        case (FprintdInterface.device, let method):
            guard let device = device(at: call.path) else { throw BusError(.noSuchDevice, "No device at \(call.path)") }
            guard let known = FprintdMethod(rawValue: method) else {
                throw BusError("org.freedesktop.DBus.Error.UnknownMethod", "no method \(method)")
            }
            return try await deviceCall(call, device, known)
        default:
            throw BusError("org.freedesktop.DBus.Error.UnknownMethod", "no method \(call.interface).\(call.method)")
        }
    }
}
