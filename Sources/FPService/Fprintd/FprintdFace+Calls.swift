import FPAuthentication
import FPReaders
import Foundation

extension FprintdFace {
    /// A Device method: the claim it needs, the caller's identity from the bus, polkit, then the
    /// method itself, which checks its claim again (the polkit question may have taken a while).
    func deviceCall(_ call: BusCall, _ device: FprintdDevice, _ method: FprintdMethod) async throws -> [BusValue] {
        guard let bus = connection else { throw BusError(.internalError, "the bus face is stopping") }
        let rule = FprintdRules.rule(method)
        try device.check(rule.claim, sender: call.sender)
        // Who the caller is matters to the methods that name a user; the others act for the
        // claim's holder, looked up when it claimed.
        var named: (caller: Caller, user: String)?
        if rule.namesUser {
            let caller = try await caller(call.sender, bus: bus)
            var user = caller.user
            if let name = call.string(0), !name.isEmpty, name != caller.user {
                if let refusal = await FprintdPolkit(bus: bus).refusal(call.sender, [.setUsername]) { throw refusal }
                user = name
            }
            named = (caller, user)
        }
        if !rule.actions.isEmpty, let refusal = await FprintdPolkit(bus: bus).refusal(call.sender, rule.actions) { throw refusal }
        // The methods that name a user have `named` (their rule's `namesUser`).
        switch (method, named) {
        case (.claim, let named?): return try await claim(device, call.sender, user: named.user, caller: named.caller, bus: bus)
        case (.release, _): return try await release(device, call.sender)
        case (.listEnrolledFingers, let named?): return [.strings(try listFingers(device, user: named.user, caller: named.caller))]
        case (.deleteEnrolledFingers, let named?): return try await deleteAll(device, call.sender, user: named.user, caller: named.caller)
        case (.deleteEnrolledFingers2, _): return try await delete(device, call.sender, finger: nil)
        case (.deleteEnrolledFinger, _):
            guard let finger = FprintdFinger.finger(call.string(0) ?? "") else {
                throw BusError(.invalidFingername, "Invalid finger name")
            }
            return try await delete(device, call.sender, finger: finger)
        case (.verifyStart, _): try await verifyStart(device, call); throw Answered()
        case (.verifyStop, _): return try await stop(device, call.sender, .verify)
        case (.enrollStart, _): try await enrollStart(device, call); throw Answered()
        case (.enrollStop, _): return try await stop(device, call.sender, .enroll)
        case (.claim, nil), (.listEnrolledFingers, nil), (.deleteEnrolledFingers, nil):
            throw BusError(.internalError, "\(method.rawValue) acts for a named user, and none was found")
        }
    }

    /// Who the sender is, from the bus daemon (never from the client), with the service's rules
    /// for names; an unknown uid is refused.
    private func caller(_ sender: String, bus: BusExport) async throws(BusError) -> Caller {
        let answer: [BusValue]
        do {
            answer = try await bus.call("org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                        method: "GetConnectionUnixUser", [.string(sender)])
        } catch {
            throw BusError(.internalError, "Could not get connection unix user ID: \(error.message)")
        }
        guard case .uint32(let uid)? = answer.first else { throw BusError(.internalError, "GetConnectionUnixUser answered \(answer)") }
        return try caller(uid: uid)
    }

    /// The user behind a uid, with its groups; an unknown uid is refused.
    func caller(uid: UInt32) throws(BusError) -> Caller {
        do { return try Caller(uid: uid, configuration: service) } catch {
            throw BusError(.internalError, "Failed to get information about user UID \(uid): \(error.error.message)")
        }
    }

    /// The target of an engine call for `user`, on the service's reader and state.
    func target(_ user: String, caller: Caller) throws(BusError) -> RequestTarget {
        do { return try RequestTarget(busUser: user, caller: caller, service: service) } catch {
            throw BusError(.permissionDenied, error.error.message)
        }
    }

    // MARK: - Claim and Release

    private func claim(_ device: FprintdDevice, _ sender: String, user: String, caller: Caller, bus: BusExport) async throws -> [BusValue] {
        let target = try target(user, caller: caller)
        // Another user's claim that has been idle long enough gives way (ClaimYield): in the one
        // step that makes this claim, so that no Start of the old holder's slips in between.
        let yielded = try device.state.withLock { state throws(BusError) -> (FprintdDevice.Holder, FprintdDevice.Running?)? in
            var yielded: (FprintdDevice.Holder, FprintdDevice.Running?)?
            if let holder = state.holder {
                guard device.yield.yields(state, to: caller.credentials.uid) else { throw BusError(.alreadyInUse, "Device was already claimed") }
                yielded = (holder, state.running)
                state.running = nil
                state.yielded = holder.sender
            } else if state.yielded == sender {
                state.yielded = nil
            }
            state.holder = FprintdDevice.Holder(sender: sender, user: user, caller: caller)
            state.quietSince = device.yield.now
            return yielded
        }
        if let (holder, running) = yielded { await letGo(device, holder, running) }
        // The reader is opened now and kept open until the claim ends, as fprintd's device is:
        // a reader that cannot be opened fails the Claim, not a later Start.
        do { try await open(device, target) } catch {
            device.state.withLock { state in
                if state.holder?.sender == sender { state.holder = nil }
            }
            throw BusError(.internalError, "Open failed with error: \(AuthError(error).message)")
        }
        // A client that leaves the bus gives its claim up: what it ran is cancelled (nothing it
        // did not see finish is counted) and the device is free again.
        let watch = await bus.watch(sender) { [self] in Task { await self.vanished(device, sender) } }
        let kept = device.state.withLock { state -> Bool in
            guard state.holder?.sender == sender else { return false }
            state.holder?.watch = watch
            return true
        }
        if !kept { await bus.unwatch(watch) }
        return []
    }

    private func release(_ device: FprintdDevice, _ sender: String) async throws -> [BusValue] {
        guard let ended = await giveUp(device, sender) else { throw BusError(.claimDevice, "Device was not claimed before use") }
        // The claim is over either way (the next Claim opens the reader afresh); the client is
        // told its reader failed to close, as fprintd tells it.
        if let failure = ended { throw BusError(.internalError, "Release failed with error: \(AuthError(failure).message)") }
        return []
    }

    private func vanished(_ device: FprintdDevice, _ sender: String) async {
        _ = await giveUp(device, sender)
    }

    /// Ends `sender`'s claim: in one step the claim is marked as being released and what runs
    /// is taken, so that no Start of theirs slips in between; then what ran is cancelled and
    /// waited for, the reader closed, and the claim goes. Nil when `sender` did not hold the
    /// device or is releasing it already (a newer claim of someone else is left alone);
    /// else the reader's close error, if any.
    private func giveUp(_ device: FprintdDevice, _ sender: String) async -> (any Error)?? {
        guard let (holder, running) = device.state.withLock({ state -> (FprintdDevice.Holder, FprintdDevice.Running?)? in
            guard let holder = state.holder, holder.sender == sender, !holder.releasing else { return nil }
            state.holder?.releasing = true
            return (holder, state.running)
        }) else { return nil }
        let failure = await letGo(device, holder, running)
        device.state.withLock { state in
            if state.holder?.sender == sender, state.holder?.releasing == true { state.holder = nil }
        }
        return .some(failure)
    }

    /// What follows a claim taken from `holder`: what it ran is cancelled and waited for, its
    /// pin on the reader and its watch on the bus go.
    /// - Returns: the reader's error when it closed now and the close failed.
    @discardableResult
    private func letGo(_ device: FprintdDevice, _ holder: FprintdDevice.Holder, _ running: FprintdDevice.Running?) async -> (any Error)? {
        if let running { await end(device, running) }
        let failure = await readers.pool.unpin(device.info.identity)
        if let bus = connection { await bus.unwatch(holder.watch) }
        await device.fingerRelay.caughtUp()
        return failure
    }

    /// Opens the device's reader for a claim and pins it open (``ReaderPool/pin(_:)``). A reader
    /// busy with another operation is open already; socket clients keep their turns.
    private func open(_ device: FprintdDevice, _ target: RequestTarget) async throws {
        let identity = device.info.identity
        await readers.pool.pin(identity)
        do {
            try await readers.with(target, required: true, wait: false, timeout: 0) { _ in }
        } catch where AuthError(error).code == .readerBusy {
            return
        } catch {
            await readers.pool.unpin(identity)
            throw error
        }
    }

    /// Cancels an action and waits for it to end, then clears it (if it is still the one).
    func end(_ device: FprintdDevice, _ running: FprintdDevice.Running) async {
        running.operation?.cancel(.app)
        await running.task?.value
        device.finished(running.id)
    }

    /// VerifyStop and EnrollStop: end the action (at once if it runs, or after its last status).
    private func stop(_ device: FprintdDevice, _ sender: String, _ kind: FprintdDevice.Kind) async throws -> [BusValue] {
        _ = try device.holder(sender)
        // Read and marked in one step: two Stops sent together both read the action running
        // before either ended it, and both succeeded; the second is refused, as fprintd does.
        let (running, alreadyStopping) = device.state.withLock { state -> (FprintdDevice.Running?, Bool) in
            guard let running = state.running, running.kind == kind, !running.stopping else { return (state.running, state.running?.stopping == true) }
            state.running?.stopping = true
            return (running, false)
        }
        guard let running, running.kind == kind, !alreadyStopping else {
            if running != nil { throw BusError(.alreadyInUse, "Another operation is already in progress") }
            throw BusError(.noActionInProgress, kind == .verify ? "No verification in progress" : "No enrollment in progress")
        }
        // The properties are the reader's flags: an answered verification's finger stays
        // present until it is lifted or its waiting operation is cancelled, as with fprintd.
        await end(device, running)
        await device.fingerRelay.caughtUp()
        return []
    }

    /// Sets `finger-present` and `finger-needed`, announcing the ones that changed.
    func setFinger(_ device: FprintdDevice, present: Bool? = nil, needed: Bool? = nil) async {
        let changed = device.state.withLock { state -> [FprintdProperty] in
            var names: [FprintdProperty] = []
            if let present, state.fingerPresent != present { state.fingerPresent = present; names.append(.fingerPresent) }
            if let needed, state.fingerNeeded != needed { state.fingerNeeded = needed; names.append(.fingerNeeded) }
            return names
        }
        if !changed.isEmpty { await propertiesChanged(device, changed) }
    }
}

/// Thrown by a method that answers its call itself, from the task it started.
struct Answered: Error {}
