internal import CLibfprint
import FPCore
import FPMatching

/// Identification on image readers with the project's bozorth3 (issue 26): libfprint scans
/// and finds the minutiae, exactly as in its own identify, and the comparisons run on every
/// core with tables built once per print, with libfprint's decision: the first print in
/// gallery order whose score reaches the driver's threshold.
extension LoopDevice {
    func identify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> MatchOutcome {
        lastIdentification = nil
        let driver = String(cString: fp_device_get_driver(pointer))
        guard let plan = try await hostPlan(for: gallery, driver: driver) else {
            let outcome = try await identifyInLibfprint(gallery, fingerTimeout: fingerTimeout).outcome
            // libfprint compares in gallery order and stops at the first match.
            let compared: Int? = switch outcome {
            case .match(let index): index + 1
            case .noMatch: gallery.count
            default: nil
            }
            if HostMatchingDrivers.isImageDriver(driver), let compared {
                lastIdentification = IdentificationCost(compared: compared, galleryCount: gallery.count, matchingSeconds: nil)
            }
            return outcome
        }
        let scan: PrintData
        switch try await hostScan(fingerTimeout: fingerTimeout) {
        case .scan(let taken): scan = taken
        case .outcome(let outcome): return outcome
        }
        let clock = ContinuousClock()
        let started = clock.now
        let found = try await firstMatch(scan: scan, plan: plan)
        let elapsed = clock.now - started
        lastIdentification = IdentificationCost(
            compared: found.compared, galleryCount: gallery.count,
            matchingSeconds: elapsed.inSeconds)
        return found.index.map { .match(galleryIndex: $0) } ?? .noMatch
    }

    /// Scans once and scores the finger against every print, for the engine's 1:N decision
    /// (issue 50); where fpbridge does not compare, libfprint's identify decides as in
    /// ``identify(_:fingerTimeout:)``. A print whose comparison exceeds the step limit has no
    /// score: the decision treats it as possibly the best, and no print is blamed for it.
    func scoreIdentify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> IdentificationScan {
        guard let plan = try await hostPlan(for: gallery) else {
            return .decided(try await identify(gallery, fingerTimeout: fingerTimeout))
        }
        lastIdentification = nil
        let scan: PrintData
        switch try await hostScan(fingerTimeout: fingerTimeout) {
        case .scan(let taken): scan = taken
        case .outcome(let outcome): return .decided(outcome)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let table = try Self.probeTable(scan)
        let prints = plan.prints
        let scored: Bozorth3Search.Scores
        do {
            scored = try await Bozorth3Search.scores(probe: table, count: prints.count) { prints[$0].print }
        } catch is CancellationError {
            throw ReaderError.cancelled
        }
        lastIdentification = IdentificationCost(compared: gallery.count, galleryCount: gallery.count,
                                                matchingSeconds: (clock.now - started).inSeconds)
        return .scored(GalleryScores(scores: scored.scores, comparisons: scored.comparisons, readerThreshold: plan.threshold))
    }

    /// One scan for the host matcher: libfprint's identify with an empty gallery captures,
    /// detects the minutiae, applies its finger and retry rules, matches nothing and hands back
    /// the scan's print; anything else it answers (a retry, a cancel) is the outcome.
    private func hostScan(fingerTimeout: Duration) async throws -> HostScan {
        let (outcome, probe) = try await identifyInLibfprint([], fingerTimeout: fingerTimeout, keepingScan: true)
        guard case .noMatch = outcome else { return .outcome(outcome) }
        guard let scan = probe else {
            throw ReaderError.general("the reader answered an identification without its scan")
        }
        return .scan(scan)
    }

    /// The bozorth3 table of a scan's one sample.
    private static func probeTable(_ scan: PrintData) throws -> Bozorth3PairTable {
        let samples = try NBISTemplate(scan).samples ?? []
        // libfprint's rule for a scan: exactly one sample, or the comparison fails.
        guard samples.count == 1 else {
            throw ReaderError.general("the reader's scan holds \(samples.count) samples instead of one")
        }
        return Bozorth3PairTable(minutiae: samples[0])
    }

    /// libfprint's identify decision for a scan already taken (identify's, or an enrollment's
    /// first): the first print in gallery order whose score reaches the driver's threshold.
    func firstMatch(scan: PrintData, plan: HostPlan) async throws -> Bozorth3Search.Result {
        let probe = try Self.probeTable(scan)
        do {
            let prints = plan.prints
            return try await Bozorth3Search.firstMatch(probe: probe, count: prints.count, threshold: plan.threshold) { prints[$0].print }
        } catch is CancellationError {
            throw ReaderError.cancelled
        } catch let undecided as Bozorth3Search.Undecided {
            // That print might match, so no later one may be answered instead: fail closed.
            throw ReaderError.invalidPrint("enrolled print \(undecided.index + 1) of \(plan.prints.count) takes more than "
                + "\(Bozorth3.stepLimit) steps to compare, far more than any real print has needed (a crafted print?)")
        }
    }

    /// The gallery ready for the host matcher on this device, or nil when libfprint has to match
    /// (``hostPlan(for:driver:)``).
    func hostPlan(for gallery: [PrintData]) async throws -> HostPlan? {
        try await hostPlan(for: gallery, driver: String(cString: fp_device_get_driver(pointer)))
    }

    /// The gallery ready for the host matcher, or nil when libfprint has to match: a driver
    /// whose threshold is not known, or a gallery with a print that is not NBIS or was made
    /// by another reader (libfprint's path then refuses it as it always has).
    private func hostPlan(for gallery: [PrintData], driver: String) async throws -> HostPlan? {
        guard let threshold = HostMatchingDrivers.threshold(forDriver: driver) else { return nil }
        let deviceID = String(cString: fp_device_get_device_id(pointer))
        // Decoding a large gallery the first time takes a while: not on the loop thread.
        let entries = try await Task.detached { try PreparedPrints.shared.prepare(gallery) }.value
        for entry in entries {
            guard entry.driver == driver, entry.deviceID == deviceID, entry.samples != nil else { return nil }
        }
        return HostPlan(threshold: threshold, prints: entries)
    }
}

/// What ``LoopDevice/hostScan(fingerTimeout:)`` got: the scan, or what libfprint answered instead.
private enum HostScan {
    case scan(PrintData)
    case outcome(MatchOutcome)
}

/// What the host matcher compares a scan with.
struct HostPlan: Sendable {
    let threshold: Int
    let prints: [PreparedPrints.Entry]
}
