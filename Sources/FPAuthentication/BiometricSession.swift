import FPCore
import FPReaders
import FPStore
import Foundation

/// One biometric evaluation: scan, count, and stop at the first decision.
struct BiometricSession {
    enum Scope {
        /// Verification of the context's user; counts per user.
        case verify(requirePasscode: Bool)
        /// Identification among every user on the reader; counts per reader.
        case identify
    }

    let context: AuthenticationContext
    let options: BiometricOptions
    let scope: Scope
    /// Under the device-owner policy the fallback leads to the passcode.
    var fallbackIsPasscode = false

    private var environment: AuthEnvironment { context.environment }
    private var configuration: AuthConfiguration { environment.configuration }

    func run() async throws -> AuthSuccess {
        guard let reader = environment.reader else {
            throw AuthError(.biometryNotAvailable, "no fingerprint reader is available")
        }
        let info = await reader.info
        let counterScope: CounterScope
        switch scope {
        case .verify(let requirePasscode):
            if let problem = await context.biometricProblem(options: options, requirePasscode: requirePasscode) { throw problem }
            counterScope = .user(environment.user)
        case .identify:
            counterScope = .reader(driver: info.identity.driver, deviceID: info.identity.deviceID)
            if let problem = context.lockoutProblem(counterScope) { throw problem }
        }
        let gallery = try loadGallery(reader: info.identity)
        guard !gallery.isEmpty else {
            throw AuthError(.biometryNotEnrolled, "nobody has a print enrolled on \(info.identity)")
        }
        if context.interactionNotAllowed {
            throw AuthError(.notInteractive, "a fingerprint scan is needed but interaction is not allowed")
        }
        let limit = min(options.maxFailedMatches ?? configuration.maxFailedMatchesPerEvaluation,
                        configuration.maxFailedMatchesPerEvaluation)
        let deadline = ContinuousClock.now + .milliseconds(Int(configuration.scanTimeoutSeconds * 1000))
        let timeout = AuthError(.timedOut, "no finger was presented within \(Int(configuration.scanTimeoutSeconds)) seconds")
        var failures = 0
        var fallbackOffered = false

        while true {
            context.emit(.presentFinger(info.scanType))
            let prints = gallery.map(\.print)
            let outcome = try await withDeadline(deadline, timeout: timeout) { [interruption = context.interruption] in
                try await interruption.scan { try await Self.scan(reader, info: info, gallery: prints) }
            }
            switch outcome {
            case .match(let index):
                let record = gallery[index]
                try environment.counters.update(counterScope) { $0.biometricFailures = 0 }
                context.emit(.matched(user: record.user, finger: record.finger))
                return AuthSuccess(method: .fingerprint, user: record.user, finger: record.finger)
            case .noMatch:
                failures += 1
                let threshold = configuration.biometricLockoutThreshold
                let counter = try environment.counters.update(counterScope) { counter in
                    counter.biometricFailures += 1
                    if counter.biometricFailures >= threshold { counter.biometryLockedOut = true }
                }
                if counter.biometryLockedOut {
                    context.emit(.lockedOut)
                    throw AuthError(.biometryLockout,
                                    "biometry is now locked out for \(counterScope) after \(counter.biometricFailures) failed matches in a row; enter the passcode to unlock")
                }
                if failures >= limit {
                    throw AuthError(.authenticationFailed, "the finger did not match (\(failures) of \(limit) attempts used)")
                }
                context.emit(.noMatch(attemptsLeftInEvaluation: limit - failures,
                                      attemptsLeftBeforeLockout: max(0, threshold - counter.biometricFailures)))
                if !fallbackOffered, let title = context.effectiveFallbackTitle {
                    fallbackOffered = true
                    context.interruption.offer()
                    context.emit(.fallbackOffered(title: title))
                }
            case .retry(let reason):
                context.emit(.retryHint(reason))
            case .userChoice(.cancel):
                throw AuthError(.userCancel, "cancelled by the user")
            case .userChoice(.fallback):
                // The button only exists after the first failed match.
                if fallbackOffered {
                    throw AuthError(.userFallback, "the user chose '\(context.effectiveFallbackTitle ?? "fallback")'")
                }
            }
        }
    }

    /// The prints to match: the user's (verify) or everybody's on this reader (identify).
    private func loadGallery(reader: ReaderIdentity) throws -> [PrintRecord] {
        let store = environment.prints
        switch scope {
        case .verify:
            return try store.prints(user: environment.user, reader: reader)
                .filter { options.fingers?.contains($0.finger) ?? true }
        case .identify:
            return try store.users(reader: reader).flatMap { try store.prints(user: $0, reader: reader) }
        }
    }

    /// One scan. Verify-only readers compare with the first print, as fprintd does.
    private static func scan(_ reader: any FingerprintReader, info: ReaderInfo, gallery: [PrintData]) async throws -> MatchOutcome {
        if gallery.count > 1 && info.features.contains(.identify) {
            return try await reader.identify(gallery)
        }
        if info.features.contains(.verify) {
            return try await reader.verify(gallery[0])
        }
        return try await reader.identify(gallery)
    }
}
