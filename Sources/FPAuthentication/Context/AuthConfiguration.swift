import FPKeyFormats
import FPMatching
import FPStore
import FoundationEssentials

/// The policy's numbers. Every one has the spec's default and can be changed
/// in `config.json` in the state directory (same keys as the properties).
public struct AuthConfiguration: Sendable, Hashable, Codable {
    /// Failed matches that end one evaluation with `authenticationFailed`.
    public var maxFailedMatchesPerEvaluation = 3
    /// Consecutive failed matches, across evaluations and processes, that lock biometry out.
    public var biometricLockoutThreshold = 5
    /// Failed identifications on one reader per timed lockout step (every 5th locks it for a while).
    public var identificationLockoutThreshold = 5
    /// The waits after the 1st, 2nd, … timed identification lockout, in seconds; the last repeats.
    public var identificationLockoutSeconds: [Double] = [30, 120, 600]
    /// Failed identifications on one reader that lock it until an enrolled user's passcode.
    public var identificationPermanentLockoutThreshold = 20
    /// The fraction of strangers (people never enrolled) an identification among many people
    /// may welcome as somebody, at whatever size the gallery has: the 1:N threshold is set from
    /// it (FPMatching's `IdentificationPolicy`). One in 1,000 by default; 1e-9 to 0.1.
    public var identificationStrangerRate: Double = 0.001
    /// Touches one identification may take when the first is too close to call: 2 (a second
    /// touch confirms), or 1 (too close is no).
    public var identificationTouches = 2
    /// Failed identifications on one reader in about an hour that the stranger rate is meant to
    /// face; past them the 1:N threshold rises, so that a guesser's touches together win no
    /// more than this many at the rate could (a passer-by's success lowers nothing). 10 by
    /// default; 1 to 100,000.
    public var identificationStrangerTouchesPerHour = 10
    /// The most prints an identification among everyone on a reader compares. Past it, an
    /// identification that names nobody is refused (`claim-needed`) before any scan: the
    /// person names themselves first (the kiosk's badge) and only their prints are compared,
    /// at the threshold of that small gallery. 2,000 by default, about 1,000 people of two
    /// fingers: the accuracy benchmark's right person on the first touch was 62 % at 1,000
    /// prints and 37 % at 10,000, the threshold rising about 2.4 points with each doubling
    /// (docs/kiosk.md, "Badge and finger"). 0 to 10,000,000; 0: every identification names
    /// its person.
    public var identificationOpenGalleryLimit = 2000
    /// Consecutive wrong passcodes before the passcode is locked for a while.
    public var passcodeAttemptsBeforeLockout = 6
    /// Waits after the 6th, 7th, 8th, … wrong passcode, in seconds; the last repeats.
    public var passcodeLockoutSeconds: [Double] = [60, 300, 900, 3600]
    /// How long an evaluation waits for a finger before it stops scanning.
    public var scanTimeoutSeconds: Double = 30
    /// How long a passcode prompt waits for the person before it ends with `timedOut`.
    public var passcodeTimeoutSeconds: Double = 60
    /// scrypt's cost N (a power of two, at least 2^10) for new passcodes.
    public var passcodeHashRounds = 1 << 15
    /// The shortest passcode accepted.
    public var minimumPasscodeLength = 4

    /// iOS's rules for when the password or passcode is needed again before the next finger
    /// (docs/rules.md, "When the password is needed again"). Each on/off key that is absent
    /// (nil) takes ``passwordRulesByDefault``; the hours are Apple's.
    /// (a) After the machine starts, until the user's password or passcode.
    public var passwordAfterBoot: Bool?
    /// (b) When the user has not authenticated at all (password, passcode or finger) for
    /// ``passwordAfterIdleHours``.
    public var passwordAfterIdle: Bool?
    /// Hours without any authentication after which (b) applies: Apple's 48.
    public var passwordAfterIdleHours: Double = 48
    /// (c) When neither the password nor the passcode was used for ``passwordAfterAgeHours`` and
    /// no finger matched for ``passwordAfterAgeBiometryHours``.
    public var passwordAfterAge: Bool?
    /// Hours without the password or passcode for (c): Apple's 156 (six and a half days).
    public var passwordAfterAgeHours: Double = 156
    /// Hours without a match for (c): Apple's 4.
    public var passwordAfterAgeBiometryHours: Double = 4
    /// Whether the rules whose key is absent apply: true in fpbridged's system mode (set by the
    /// service, never read from `config.json`), false in test mode and in a process that hosts
    /// the engine itself (the CLI's in-process mode, `LAContext` without the service), where the
    /// state is a developer's own and a fake reader's tests would otherwise need a password first.
    public var passwordRulesByDefault = false

    /// The defaults: Apple's limits and fpbridge's timeouts.
    public init() {}

    /// Reads a `config.json`; a missing key keeps its default.
    /// - Throws: `DecodingError` for a value of the wrong type.
    public init(from decoder: any Decoder) throws {
        let defaults = AuthConfiguration()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try container.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        maxFailedMatchesPerEvaluation = try value(.maxFailedMatchesPerEvaluation, defaults.maxFailedMatchesPerEvaluation)
        biometricLockoutThreshold = try value(.biometricLockoutThreshold, defaults.biometricLockoutThreshold)
        identificationLockoutThreshold = try value(.identificationLockoutThreshold, defaults.identificationLockoutThreshold)
        identificationLockoutSeconds = try value(.identificationLockoutSeconds, defaults.identificationLockoutSeconds)
        identificationPermanentLockoutThreshold = try value(.identificationPermanentLockoutThreshold,
                                                            defaults.identificationPermanentLockoutThreshold)
        identificationStrangerRate = try value(.identificationStrangerRate, defaults.identificationStrangerRate)
        identificationTouches = try value(.identificationTouches, defaults.identificationTouches)
        identificationStrangerTouchesPerHour = try value(.identificationStrangerTouchesPerHour, defaults.identificationStrangerTouchesPerHour)
        identificationOpenGalleryLimit = try value(.identificationOpenGalleryLimit, defaults.identificationOpenGalleryLimit)
        passcodeAttemptsBeforeLockout = try value(.passcodeAttemptsBeforeLockout, defaults.passcodeAttemptsBeforeLockout)
        passcodeLockoutSeconds = try value(.passcodeLockoutSeconds, defaults.passcodeLockoutSeconds)
        scanTimeoutSeconds = try value(.scanTimeoutSeconds, defaults.scanTimeoutSeconds)
        passcodeTimeoutSeconds = try value(.passcodeTimeoutSeconds, defaults.passcodeTimeoutSeconds)
        passcodeHashRounds = try value(.passcodeHashRounds, defaults.passcodeHashRounds)
        minimumPasscodeLength = try value(.minimumPasscodeLength, defaults.minimumPasscodeLength)
        passwordAfterBoot = try container.decodeIfPresent(Bool.self, forKey: .passwordAfterBoot)
        passwordAfterIdle = try container.decodeIfPresent(Bool.self, forKey: .passwordAfterIdle)
        passwordAfterIdleHours = try value(.passwordAfterIdleHours, defaults.passwordAfterIdleHours)
        passwordAfterAge = try container.decodeIfPresent(Bool.self, forKey: .passwordAfterAge)
        passwordAfterAgeHours = try value(.passwordAfterAgeHours, defaults.passwordAfterAgeHours)
        passwordAfterAgeBiometryHours = try value(.passwordAfterAgeBiometryHours, defaults.passwordAfterAgeBiometryHours)
    }

    /// The keys `config.json` may hold: every setting but ``passwordRulesByDefault``, the host's.
    private enum CodingKeys: String, CodingKey {
        case maxFailedMatchesPerEvaluation, biometricLockoutThreshold, identificationLockoutThreshold
        case identificationLockoutSeconds, identificationPermanentLockoutThreshold, passcodeAttemptsBeforeLockout
        case identificationStrangerRate, identificationTouches, identificationStrangerTouchesPerHour, identificationOpenGalleryLimit
        case passcodeLockoutSeconds, scanTimeoutSeconds, passcodeTimeoutSeconds, passcodeHashRounds, minimumPasscodeLength
        case passwordAfterBoot, passwordAfterIdle, passwordAfterIdleHours, passwordAfterAge, passwordAfterAgeHours
        case passwordAfterAgeBiometryHours
    }

    /// Reads `config.json` from the state directory (defaults when absent) and checks it.
    /// `passwordRulesByDefault`: the host's default for iOS's rules (``passwordRulesByDefault``).
    public static func load(from directory: StateDirectory, passwordRulesByDefault: Bool = false) throws(AuthError) -> AuthConfiguration {
        var configuration: AuthConfiguration
        do {
            configuration = try ConfigFile.load(AuthConfiguration.self, from: directory) ?? AuthConfiguration()
        } catch {
            throw AuthError(error)
        }
        configuration.passwordRulesByDefault = passwordRulesByDefault
        if let problem = configuration.problem {
            throw AuthError(.invalidInput, "\(ConfigFile.path(in: directory)): \(problem)")
        }
        return configuration
    }

    /// The longest wait any setting may name: a year. Larger values (1e300, inf)
    /// would trap where seconds become integers or durations.
    public static let maximumSeconds: Double = 86_400 * 365
    /// The longest a scan may wait for a finger: a day.
    public static let maximumScanTimeout: Double = 86_400

    /// What is wrong with the numbers, if anything.
    public var problem: String? {
        func outside(_ value: Int, _ range: ClosedRange<Int>, _ name: String) -> String? {
            range.contains(value) ? nil : "\(name) must be between \(range.lowerBound) and \(range.upperBound)"
        }
        func waits(_ values: [Double], _ name: String) -> String? {
            values.isEmpty || values.contains(where: { !($0 >= 0 && $0 <= Self.maximumSeconds) })
                ? "\(name) needs at least one wait, each between 0 and \(Int(Self.maximumSeconds)) seconds" : nil
        }
        if let problem = outside(maxFailedMatchesPerEvaluation, 1...100, "maxFailedMatchesPerEvaluation")
            ?? outside(biometricLockoutThreshold, 1...1000, "biometricLockoutThreshold")
            ?? outside(identificationLockoutThreshold, 1...1000, "identificationLockoutThreshold")
            ?? outside(identificationPermanentLockoutThreshold, identificationLockoutThreshold...10_000,
                       "identificationPermanentLockoutThreshold")
            ?? outside(identificationTouches, 1...2, "identificationTouches")
            ?? outside(identificationStrangerTouchesPerHour, 1...100_000, "identificationStrangerTouchesPerHour")
            ?? outside(passcodeAttemptsBeforeLockout, 1...1000, "passcodeAttemptsBeforeLockout")
            ?? outside(minimumPasscodeLength, 1...1024, "minimumPasscodeLength")
            ?? waits(identificationLockoutSeconds, "identificationLockoutSeconds")
            ?? waits(passcodeLockoutSeconds, "passcodeLockoutSeconds") {
            return problem
        }
        // Apart from the chain above, which is at the type checker's limit already.
        if let problem = outside(identificationOpenGalleryLimit, 0...10_000_000, "identificationOpenGalleryLimit") { return problem }
        if !(identificationStrangerRate >= 1e-9 && identificationStrangerRate <= 0.1) {
            return "identificationStrangerRate must be between 0.000000001 and 0.1 (the fraction of strangers an identification may welcome)"
        }
        if !(scanTimeoutSeconds > 0 && scanTimeoutSeconds <= Self.maximumScanTimeout) {
            return "scanTimeoutSeconds must be more than 0 and at most \(Int(Self.maximumScanTimeout))"
        }
        if !(passcodeTimeoutSeconds > 0 && passcodeTimeoutSeconds <= Self.maximumScanTimeout) {
            return "passcodeTimeoutSeconds must be more than 0 and at most \(Int(Self.maximumScanTimeout))"
        }
        for (hours, name) in [(passwordAfterIdleHours, "passwordAfterIdleHours"), (passwordAfterAgeHours, "passwordAfterAgeHours"),
                              (passwordAfterAgeBiometryHours, "passwordAfterAgeBiometryHours")]
            where !(hours > 0 && hours * 3600 <= Self.maximumSeconds) {
            return "\(name) must be more than 0 and at most \(Int(Self.maximumSeconds / 3600)) hours"
        }
        if !Scrypt.acceptedRounds.contains(passcodeHashRounds) || passcodeHashRounds & (passcodeHashRounds - 1) != 0 {
            return "passcodeHashRounds must be a power of two between \(Scrypt.acceptedRounds.lowerBound) "
                + "and \(Scrypt.acceptedRounds.upperBound)"
        }
        return nil
    }

    /// The 1:N decision's policy these settings give.
    var identificationPolicy: IdentificationPolicy {
        IdentificationPolicy(targetStrangerRate: identificationStrangerRate, maximumTouches: identificationTouches,
                             strangerTouchesPerHour: Double(identificationStrangerTouchesPerHour))
    }

    /// The wait after the given number of consecutive wrong passcodes, nil below the limit.
    func passcodeWait(afterFailures failures: Int) -> TimeInterval? {
        guard failures >= passcodeAttemptsBeforeLockout else { return nil }
        let step = min(failures - passcodeAttemptsBeforeLockout, passcodeLockoutSeconds.count - 1)
        return passcodeLockoutSeconds[step]
    }
}
