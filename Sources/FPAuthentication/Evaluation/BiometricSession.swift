import FPCore
import FPMatching
import FPReaders
import FPStore
import FoundationEssentials

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
    private var rules: LockoutRules { environment.lockoutRules }

    /// Runs the evaluation with the reader held for it alone: a passcode asked for after it (the
    /// device-owner fallback) holds none.
    ///
    /// The scan timeout is one deadline from here (``ScanDeadline``): a wait for a reader another
    /// operation holds, retry hints and wrong fingers with attempts left all spend it.
    func run() async throws -> AuthSuccess {
        let deadline = ScanDeadline(after: .milliseconds(Int(configuration.scanTimeoutSeconds * 1000)), on: environment.scanClock)
        return try await context.withReader { reader in try await self.run(on: reader, until: deadline) }
    }

    private func run(on reader: (any FingerprintReader)?, until deadline: ScanDeadline) async throws -> AuthSuccess {
        guard let reader else {
            throw AuthError(.biometryNotAvailable, "no fingerprint reader is available")
        }
        let info = await reader.info
        let counterScope: CounterScope
        let gallery: Gallery
        switch scope {
        case .verify(let requirePasscode):
            if requirePasscode, let problem = context.passcodeSetProblem() { throw problem }
            counterScope = .user(environment.user)
            gallery = try Gallery.verification(environment, reader: info.identity, fingers: options.fingers)
            if let problem = context.lockoutProblem(counterScope) { throw problem }
        case .identify:
            counterScope = .reader(driver: info.identity.driver, deviceID: info.identity.deviceID)
            if let problem = context.lockoutProblem(counterScope) { throw problem }
            gallery = try Gallery.identification(environment, reader: info.identity, claimed: options.claimedUser)
            let limit = configuration.identificationOpenGalleryLimit
            if options.claimedUser == nil, gallery.records.count > limit {
                // Refused before any scan or count: at this size the threshold costs the right
                // person too many touches (AuthConfiguration.identificationOpenGalleryLimit).
                let count = gallery.records.count
                throw AuthError(.notPermitted, "\(count) print\(count == 1 ? " is" : "s are") on \(info.identity), more than "
                                + "identificationOpenGalleryLimit (\(limit)) for an identification among everyone: "
                                + "the person names themselves first (the kiosk's badge, fpbridge identify --claimed USER)",
                                cause: .claimNeeded)
            }
        }
        try context.reserveCounter(counterScope, passcode: false)
        for skipped in gallery.skipped { context.emit(.printSkipped(skipped.description)) }
        if context.interactionNotAllowed {
            throw AuthError(.notInteractive, "a fingerprint scan is needed but interaction is not allowed")
        }
        let limit = min(options.maxFailedMatches ?? configuration.maxFailedMatchesPerEvaluation,
                        configuration.maxFailedMatchesPerEvaluation)
        guard let matcher = reader as? any PrintMatching else {
            throw AuthError(.biometryNotAvailable, "\(info.identity) cannot match prints for fpbridge")
        }
        // Every scan of this evaluation shares the one deadline (ScanDeadline): a retry hint or a
        // wrong finger with attempts left starts the next scan with what is left, never a fresh
        // timeout. It bounds the waiting for a finger; matching the finger that came is not waiting.
        let timedOut = AuthError(.timedOut, "no finger was presented within \(SecondsText.words(configuration.scanTimeoutSeconds))")
        var failures = 0
        var fallbackOffered = false
        let prints = gallery.records.map(\.print)
        let identifying: Bool = if case .identify = scope { true } else { false }
        // The scored touches of the identification under way: a second touch is decided with the first.
        var touches: [[ScoredCandidate]] = []

        while true {
            let fingerTimeout = deadline.remaining
            guard fingerTimeout > .zero else { throw timedOut }
            context.emit(.presentFinger(info.scanType))
            let scanned: IdentificationScan
            let warning = await Self.warnBeforeCutOff(reader, context: context)
            do {
                let context = context
                scanned = try await FingerPresence.listening({ context.emit(.fingerDetected) }) {
                    try await context.interruption.scan {
                        try await Self.scan(matcher, info: info, gallery: prints, identifying: identifying, fingerTimeout: fingerTimeout)
                    }
                }
                warning?.cancel()
                if gallery.records.count > 1, let cost = await matcher.lastIdentification {
                    context.emit(.printsCompared(compared: cost.compared, of: cost.galleryCount, matchingSeconds: cost.matchingSeconds))
                }
            } catch ReaderError.timedOut {
                warning?.cancel()
                throw timedOut
            } catch {
                warning?.cancel()
                throw error
            }
            let outcome: MatchOutcome
            switch scanned {
            case .decided(let decided):
                outcome = decided
            case .scored(let scores):
                touches.append(zip(gallery.records, scores.scores).enumerated().map { index, pair in
                    ScoredCandidate(person: pair.0.user, galleryIndex: index, score: pair.1)
                })
                // The reader's failed identifications of the last hour raise the threshold; a
                // user's own fingers (a verify among them) have no such count.
                let recent: Double = if case .reader = counterScope { rules.recentStrangerTouches(context.counter(counterScope)) } else { 0 }
                let decision = IdentificationRules.decide(touches, comparisons: scores.comparisons, readerThreshold: scores.readerThreshold,
                                                          policy: configuration.identificationPolicy, recentFailedTouches: recent)
                context.emit(.identificationScored(decision.confidence))
                switch decision {
                case .identified(let index, _, _):
                    outcome = .match(galleryIndex: index)
                case .anotherTouch:
                    // Too close to call: not a failure; the next touch is decided with this one.
                    context.emit(.anotherTouch)
                    continue
                case .noMatch:
                    outcome = .noMatch
                }
                touches = []
            }
            switch outcome {
            case .match(let index):
                let record = gallery.records[index]
                if try decideMatch(record, counterScope: counterScope) {
                    context.emit(.matched(user: record.user, finger: record.finger))
                    return AuthSuccess(method: .fingerprint, user: record.user, finger: record.finger)
                }
                // The matched user was locked out meanwhile: as if that print were not there.
                fallthrough
            case .noMatch:
                failures += 1
                let attemptsLeft = try recordFailure(counterScope)
                // Said on the last attempt too: a kiosk's one-touch identify shows "(N left)" from it.
                context.emit(.noMatch(attemptsLeftInEvaluation: limit - failures, attemptsLeftBeforeLockout: attemptsLeft))
                if failures >= limit {
                    throw AuthError(.authenticationFailed, "the finger did not match (\(failures) of \(limit) attempts used)")
                }
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

    /// Decides a match and resets the count in one step under the lock: a scope
    /// locked out meanwhile refuses it; a matched user who is locked out is not
    /// identified (false: the match counts as a failure). The counter is written even when
    /// it holds no failure: a match is reported only where a failure could have been recorded.
    private func decideMatch(_ record: PrintRecord, counterScope: CounterScope) throws -> Bool {
        let rules = rules
        return try context.recording(counterScope, passcode: false) { counters in
            let user = CounterScope.user(record.user)
            let userBlock = rules.userBlock(counters[user], times: counters[times: record.user], user: record.user, path: counters.path(user))
            switch counterScope {
            case .user:
                if let block = userBlock {
                    context.emit(.lockedOut(retryAfter: block.retryAfter))
                    throw block
                }
            case .reader:
                if let block = rules.biometricBlock(counters[counterScope], scope: counterScope, path: counters.path(counterScope)) {
                    context.emit(.lockedOut(retryAfter: block.retryAfter))
                    throw block
                }
                if userBlock != nil { return false }
            }
            var counter = counters[counterScope]
            LockoutRules.clearBiometric(&counter)
            counters[counterScope] = counter
            counters.commit(counterScope)
            rules.matched(&counters[times: record.user])
            return true
        }
    }

    /// Counts a failure under the lock before anything is shown; throws the
    /// lockout it caused (or found). Returns the attempts left before lockout.
    private func recordFailure(_ counterScope: CounterScope) throws -> Int {
        let rules = rules
        let (lockout, left) = try context.recording(counterScope, passcode: false) { counters -> (AuthError?, Int) in
            var counter = counters[counterScope]
            let lockout = rules.recordFailure(&counter, scope: counterScope, path: counters.path(counterScope))
            counters[counterScope] = counter
            return (lockout, rules.attemptsLeft(counter, scope: counterScope))
        }
        if let lockout {
            context.emit(.lockedOut(retryAfter: lockout.retryAfter))
            throw lockout
        }
        return left
    }

    /// How long before libfprint's thermal cut-off a scan says so (``AuthEvent/readerWarming(scanSecondsLeft:)``).
    static let warmingLead: Double = 20

    /// Says `readerWarming` once the scan about to start nears the reader's thermal cut-off:
    /// at once when it is that near already, never for a reader that does not overheat.
    private static func warnBeforeCutOff(_ reader: any FingerprintReader, context: AuthenticationContext) async -> Task<Void, Never>? {
        guard let heat = await reader.info.heat, !heat.hot else { return nil }
        let left = heat.scanSecondsLeft
        return Task {
            let wait = left - warmingLead
            if wait > 0 { try? await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
            guard !Task.isCancelled else { return }
            context.emit(.readerWarming(scanSecondsLeft: min(left, warmingLead)))
        }
    }

    /// One scan. An identification among the reader's users is scored for the project's own 1:N
    /// rule where the reader lets fpbridge compare; a user's own fingers keep libfprint's decision
    /// (fprintd's, PAM's). Verify-only readers compare with the first print, as fprintd does.
    private static func scan(_ reader: any PrintMatching, info: ReaderInfo, gallery: [PrintData], identifying: Bool,
                             fingerTimeout: Duration) async throws -> IdentificationScan {
        if identifying && info.features.contains(.identify) {
            return try await reader.scoreIdentify(gallery, fingerTimeout: fingerTimeout)
        }
        if gallery.count > 1 && info.features.contains(.identify) {
            return .decided(try await reader.identify(gallery, fingerTimeout: fingerTimeout))
        }
        if info.features.contains(.verify) {
            return .decided(try await reader.verify(gallery[0], fingerTimeout: fingerTimeout))
        }
        return .decided(try await reader.identify(gallery, fingerTimeout: fingerTimeout))
    }
}
