import FPAuthentication
import FPReaders
import Synchronization
import FPVocabulary

/// One reader as a Device object: who claimed it, what runs on it, and the properties clients
/// read. The properties are read synchronously by GDBus on the loop, so all of it sits behind a
/// lock rather than in an actor.
final class FprintdDevice: Sendable {
    /// The client holding the device, from Claim to Release (or until it leaves the bus).
    struct Holder: Sendable {
        var sender: String
        /// The user the device was claimed for (the caller's own, or one polkit let it name).
        var user: String
        /// Who claimed it, looked up once at the claim.
        var caller: Caller
        var watch: UInt32 = 0
        /// Its Release is under way (the action ending, the reader closing): the claim stays
        /// until the close ends, and every call of the holder meanwhile is `AlreadyInUse`, as
        /// fprintd answers a second Release during its close.
        var releasing = false

        var uid: UInt32 { caller.credentials.uid }
    }

    enum Kind: Sendable { case verify, enroll, delete }

    /// An action between its Start and its Stop; `done` once its last status went out.
    struct Running: Sendable {
        /// Which action this is: whoever ends one clears only that one, never a newer one.
        let id = Running.next.add(1, ordering: .relaxed).oldValue
        var kind: Kind
        var operation: Operation?
        var task: Task<Void, Never>?
        var done = false
        /// A Stop is ending it: a second Stop is refused as fprintd refuses it (issue 53).
        var stopping = false

        private static let next = Atomic<UInt64>(1)
    }

    struct State: Sendable {
        var holder: Holder?
        var running: Running?
        var fingerPresent = false
        var fingerNeeded = false
        /// The reader's stage count and scan type now (``FprintdFace`` follows their changes).
        var enrollStages: Int
        var scanType: ScanType
        /// Since when the holder's claim has had no action running (its Claim, or the end of its
        /// last action), on ``ClaimYield``'s clock.
        var quietSince: Duration = .zero
        /// The last client whose claim yielded to another user's (``ClaimYield``), told so at its next call.
        var yielded: String?
    }

    let path: String
    let info: ReaderInfo
    let state: Locked<State>
    /// The reader's finger-status changes on their way to `finger-present` and `finger-needed`.
    let fingerRelay = FingerRelay()
    /// When an idle claim gives way to another user's.
    let yield: ClaimYield

    init(path: String, info: ReaderInfo, yield: ClaimYield) {
        self.path = path
        self.info = info
        self.yield = yield
        state = Locked(State(enrollStages: info.enrollmentStages, scanType: info.scanType))
    }

    /// The value of a Device property now.
    func property(_ property: FprintdProperty) -> BusValue {
        let state = self.state.withLock { $0 }
        switch property {
        case .name: return .string(info.name)
        // The reader's count, claimed or not, as fprintd reports it (its interface documents -1
        // while unclaimed, but fprintd itself never says -1; clients read it after a claim).
        case .numEnrollStages: return .int32(Int32(state.enrollStages))
        case .scanType: return .string(state.scanType == .swipe ? "swipe" : "press")
        case .fingerPresent: return .bool(state.fingerPresent)
        case .fingerNeeded: return .bool(state.fingerNeeded)
        }
    }

    /// Every property, for GetManagedObjects and InterfacesAdded.
    var properties: BusValue {
        .properties(FprintdProperty.allCases.map { ($0.rawValue, property($0)) })
    }

    /// Whether `sender` may make a call needing `need` now (checked before polkit is asked, so
    /// that no password dialog comes up for a call that would fail anyway, and again after).
    func check(_ need: FprintdRules.ClaimNeed, sender: String) throws(BusError) {
        let state = self.state.withLock { $0 }
        switch need {
        case .any: return
        case .free:
            // An idle claim may yield to another user's (ClaimYield); the Claim decides under
            // the lock once the caller is known.
            if state.holder != nil, !yield.yields(state, to: nil) { throw BusError(.alreadyInUse, "Device was already claimed") }
        case .heldOrFree:
            if let holder = state.holder, holder.sender != sender { throw BusError(.alreadyInUse, "Device already in use by another user") }
        case .held:
            guard let holder = state.holder, holder.sender == sender else {
                if state.yielded == sender { throw yield.released }
                if state.holder == nil { throw BusError(.claimDevice, "Device was not claimed before use") }
                throw BusError(.alreadyInUse, "Device already in use by another user")
            }
            if holder.releasing { throw BusError(.alreadyInUse, "Device is being released") }
        }
    }

    /// Clears `running` if it is still the action `id` (a newer one stays); the claim is idle from now.
    func finished(_ id: UInt64) {
        state.withLock { state in
            guard state.running?.id == id else { return }
            state.running = nil
            state.quietSince = yield.now
        }
    }

    /// The action `id` sent its last status: the claim is idle from now, though the action stays until its Stop.
    func done(_ id: UInt64) {
        state.withLock { state in
            guard state.running?.id == id else { return }
            state.running?.done = true
            state.quietSince = yield.now
        }
    }

    /// The holder, when `sender` is it.
    func holder(_ sender: String) throws(BusError) -> Holder {
        try check(.held, sender: sender)
        guard let holder = state.withLock({ $0.holder }) else { throw BusError(.claimDevice, "Device was not claimed before use") }
        return holder
    }
}
