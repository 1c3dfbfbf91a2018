import FPCore
import FPReaders
import FPStore

/// Everything a context works with: who, which reader, where state lives, and the numbers.
public struct AuthEnvironment: Sendable {
    /// The user being authenticated (verification) or enrolling.
    public var user: String
    /// The opened reader, or nil when none is available. With a reader turn (a host that shares its reader) it is the reader
    /// the turn opens for each step that uses it, unopened until then (its description only).
    public var reader: (any FingerprintReader)?
    /// Where prints, counters, passcode hashes and `config.json` live.
    public var stateDirectory: StateDirectory
    /// The limits and timeouts every rule uses.
    public var configuration: AuthConfiguration

    /// An environment; `reader` nil means none is available (the passcode may still do).
    public init(user: String, reader: (any FingerprintReader)?, stateDirectory: StateDirectory,
                configuration: AuthConfiguration) {
        self.user = user
        self.reader = reader
        self.stateDirectory = stateDirectory
        self.configuration = configuration
    }

    /// Decoded print files kept between operations by a long-running host (fpbridged keeps
    /// one per state directory); nil reads every file each time, as a one-process CLI does.
    public var printCache: PrintFileCache?

    /// The device identity key when it lives outside `service/` (in a TPM); nil for the
    /// software key sealed under the master key.
    package var deviceIdentity: (any DeviceIdentityKey)?

    /// How the reader is held when the host shares it between requests (``ReaderTurn``); nil when
    /// the host opened ``reader`` for the whole context (the CLI, `LAContext`).
    package var readerTurn: (any ReaderTurn)?

    /// Whether an error may name another user's print (a finger refused because another user
    /// enrolled it): true where the host may know who is enrolled (an in-process command reads
    /// the state directory itself; fpbridged's callers who may identify). Fail closed: false.
    package var mayNameOtherUsersPrints = false

    /// The clocks lockouts are measured on, read at each decision; tests move them.
    public var clock: @Sendable () -> LockoutClock = LockoutClock.now

    /// What an evaluation's scan deadline is measured on (``AuthConfiguration/scanTimeoutSeconds``
    /// from the start of its scans, whatever the reader reports meanwhile): the monotonic clock;
    /// a test's own clock, which it advances.
    package var scanClock: any Clock<Duration> = ContinuousClock()

    /// The lockout rules at this moment.
    var lockoutRules: LockoutRules { LockoutRules(configuration: configuration, clock: clock()) }

    var prints: PrintStore { PrintStore(directory: stateDirectory, cache: printCache) }
    var counters: CounterStore { CounterStore(directory: stateDirectory) }
    var passcodes: PasscodeStore { PasscodeStore(directory: stateDirectory) }
}
