import FPCore
import FPMatching

/// A reader in pure Swift, driven by a ``FakeScript``: headless demos, kiosk
/// prototypes without hardware, and tests.
///
/// Each operation consumes script events in order. `wait` lines pause; the
/// first other event decides the operation. A script that runs out ends the
/// operation with ``ReaderError/scriptEnded(operation:line:)``, never a hang.
/// On-chip storage (the `storage` feature) lives in memory for the reader's lifetime.
public actor FakeReader: PrintMatching {
    private let settings: FakeReaderSettings
    private let events: [FakeScript.Line]
    private var cursor = 0
    private var isOpen = false
    private var unplugged = false
    private var operationRunning = false
    private var chip: [PrintData] = []

    /// The device id of every fake reader, so that enrollments made under one
    /// script are found under another.
    public static let deviceID = "0"
    /// The driver name of every fake reader.
    public static let driver = "fake"

    /// A reader that plays `script`, from its first event.
    public init(script: FakeScript) {
        settings = script.settings
        events = script.events
    }

    /// The script's settings as reader information; the identity is always `fake/0`.
    public var info: ReaderInfo {
        ReaderInfo(identity: ReaderIdentity(driver: Self.driver, deviceID: Self.deviceID),
                   name: settings.name, scanType: settings.scanType,
                   enrollStages: settings.enrollStages, features: settings.features,
                   temperature: settings.heat?.temperature ?? .cold, heat: settings.heat)
    }

    /// Opens the reader.
    /// - Throws: `ReaderError.removed` after an `unplug` line, `ReaderError.alreadyOpen` when open.
    public func open() async throws {
        if unplugged { throw ReaderError.removed }
        if isOpen { throw ReaderError.alreadyOpen }
        isOpen = true
    }

    /// Closes the reader; the script's position is kept for the next open.
    public func close() async throws {
        isOpen = false
    }

    /// Enrolls from the script's `scan` lines, one per stage; the stream fails as the script says.
    public nonisolated func enroll(_ template: PrintTemplate) -> AsyncThrowingStream<EnrollEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.runEnroll { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    package func verify(_ print: PrintData, fingerTimeout: Duration) async throws -> MatchOutcome {
        try await match(against: [print], operation: "verify", feature: .verify, fingerTimeout: fingerTimeout)
    }

    package func identify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> MatchOutcome {
        try await match(against: gallery, operation: "identify", feature: .identify, fingerTimeout: fingerTimeout)
    }

    /// The score a scan gets against a print of its own finger id.
    public static let genuineScore = 300

    /// Scores the scan against every print: ``genuineScore`` for the finger's own, the script
    /// line's `OTHER=SCORE` for others it names, 0 for the rest. A reader with on-chip storage
    /// decides itself, as a match-on-chip sensor does.
    package func scoreIdentify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> IdentificationScan {
        if settings.features.contains(.storage) { return .decided(try await identify(gallery, fingerTimeout: fingerTimeout)) }
        let ids = try gallery.map { print throws(ReaderError) in try FakePrintFormat.decode(print) }
        return try await operation("identify", feature: .identify) {
            switch try await self.touch(for: "identify", fingerTimeout: fingerTimeout) {
            case .finger(let id, let others):
                let scores = ids.map { $0 == id ? Self.genuineScore : others[$0] ?? 0 }
                return .scored(GalleryScores(scores: scores, comparisons: gallery.count, readerThreshold: Bozorth3.defaultThreshold))
            case .outcome(let outcome):
                return .decided(outcome)
            }
        }
    }

    /// Returns the script's next `scan` as a synthetic image (needs the `capture` feature).
    /// - Throws: `ReaderError.notSupported` without the feature, or the script's error.
    public func capture() async throws -> CapturedImage {
        try await operation("capture", feature: .capture) {
            while true {
                switch try await self.nextEvent(for: "capture") {
                case .scan(let id): return FakeImage.render(fingerID: id)
                case .retry: continue
                case .cancel, .fallback: throw ReaderError.cancelled
                case .error, .unplug, .wait: preconditionFailure("handled by nextEvent")
                }
            }
        }
    }

    /// The prints in the fake sensor's memory (needs the `storage` feature).
    /// - Throws: `ReaderError.notSupported` without the feature.
    public func listStoredPrints() async throws -> [DeviceStoredPrint] {
        try await operation("listing stored prints", feature: .storageList) {
            self.chip.map { DeviceStoredPrint(data: $0, finger: nil, username: nil, description: nil) }
        }
    }

    /// Deletes one print from the fake sensor's memory.
    /// - Throws: `ReaderError.printNotFound` when it is not there, `ReaderError.notSupported` without storage.
    public func deleteStoredPrint(_ print: PrintData) async throws {
        try await operation("deleting stored prints", feature: .storageDelete) {
            guard let index = self.chip.firstIndex(of: print) else { throw ReaderError.printNotFound }
            self.chip.remove(at: index)
        }
    }

    /// Empties the fake sensor's memory.
    /// - Throws: `ReaderError.notSupported` without the `storage` feature.
    public func clearStorage() async throws {
        try await operation("clearing storage", feature: .storageClear) {
            self.chip.removeAll()
        }
    }

    // MARK: - Script playback

    private func runEnroll(_ emit: @Sendable (EnrollEvent) -> Void) async throws {
        try await operation("enroll", feature: []) {
            let total = self.settings.enrollStages
            var enrolledID: String?
            var completed = 0
            while completed < total {
                switch try await self.nextEvent(for: "enroll") {
                case .scan(let id):
                    if let first = enrolledID, first != id {
                        emit(.retry(.general))
                        continue
                    }
                    enrolledID = id
                    completed += 1
                    emit(.stageCompleted(completed: completed, total: total))
                case .retry(let reason):
                    emit(.retry(reason))
                case .cancel:
                    throw ReaderError.cancelled
                case .fallback:
                    throw ReaderError.invalidScript("'fallback' at line \(self.lastLine) has no meaning during enroll")
                case .error, .unplug, .wait:
                    preconditionFailure("handled by nextEvent")
                }
            }
            let print = FakePrintFormat.encode(fingerID: enrolledID!)
            let onChip = self.settings.features.contains(.storage)
            if onChip {
                if self.chip.contains(print) { throw ReaderError.duplicatePrint }
                self.chip.append(print)
            }
            emit(.enrolled(EnrolledPrint(data: print, storedOnDevice: onChip)))
        }
    }

    private func match(against gallery: [PrintData], operation name: String, feature: ReaderFeatures,
                       fingerTimeout: Duration) async throws -> MatchOutcome {
        let ids = try gallery.map { print throws(ReaderError) in try FakePrintFormat.decode(print) }
        return try await operation(name, feature: feature) {
            switch try await self.touch(for: name, fingerTimeout: fingerTimeout) {
            case .finger(let id, _):
                let onChip = self.settings.features.contains(.storage)
                let index = ids.indices.first { ids[$0] == id && (!onChip || self.chip.contains(gallery[$0])) }
                return index.map { .match(galleryIndex: $0) } ?? .noMatch
            case .outcome(let outcome):
                return outcome
            }
        }
    }

    /// What the next event of a verify or an identify is.
    private enum Touch {
        /// A finger: its id and the line's scores against other fingers' prints.
        case finger(String, [String: Int])
        /// No finger: a retry, or a button the user pressed.
        case outcome(MatchOutcome)
    }

    /// The next event of a verify or an identify; a finger is reported present and matching
    /// takes the settings' time (the finger is there: matching takes what it takes).
    private func touch(for name: String, fingerTimeout: Duration) async throws -> Touch {
        switch try await nextEvent(for: name, fingerDeadline: .now + fingerTimeout) {
        case .scan(let id):
            FingerPresence.report()
            if settings.matchingMilliseconds > 0 { try await sleep(milliseconds: settings.matchingMilliseconds) }
            return .finger(id, events[cursor - 1].scores)
        case .retry(let reason): return .outcome(.retry(reason))
        case .cancel: return .outcome(.userChoice(.cancel))
        case .fallback: return .outcome(.userChoice(.fallback))
        case .error, .unplug, .wait: preconditionFailure("handled by nextEvent")
        }
    }

    /// Runs one operation with the checks every reader makes first: open, not busy, feature present.
    private func operation<T: Sendable>(_ name: String, feature: ReaderFeatures,
                                        _ body: () async throws -> T) async throws -> T {
        if unplugged { throw ReaderError.removed }
        guard isOpen else { throw ReaderError.notOpen }
        guard !operationRunning else { throw ReaderError.busy }
        guard settings.features.isSuperset(of: feature) else { throw ReaderError.notSupported(name) }
        // As libfprint's pre-check: a hot reader scans nothing (listing and deleting go on).
        if let heat = settings.heat, heat.hot, ["capture", "enroll", "verify", "identify"].contains(name) {
            throw ReaderError.tooHot(usableInSeconds: heat.usableInSeconds)
        }
        operationRunning = true
        defer { operationRunning = false }
        return try await body()
    }

    private var lastLine: Int { cursor > 0 ? events[cursor - 1].number : 0 }

    /// The next event that decides something. Waits, errors and unplugs are handled here;
    /// waits past `fingerDeadline` (no finger yet) end the operation with ``ReaderError/timedOut``.
    private func nextEvent(for operation: String, fingerDeadline: ContinuousClock.Instant? = nil) async throws -> FakeEvent {
        while true {
            try checkCancelled()
            guard cursor < events.count else {
                throw ReaderError.scriptEnded(operation: operation, line: lastLine)
            }
            let line = events[cursor]
            cursor += 1
            if settings.latencyMilliseconds > 0 {
                try await sleep(milliseconds: settings.latencyMilliseconds)
            }
            switch line.event {
            case .wait(let ms):
                if let fingerDeadline, ContinuousClock.now + .milliseconds(ms) > fingerDeadline {
                    try await sleep(until: fingerDeadline)
                    throw ReaderError.timedOut
                }
                try await sleep(milliseconds: ms)
            case .error(let name):
                throw name.readerError
            case .unplug:
                unplugged = true
                isOpen = false
                throw ReaderError.removed
            default:
                return line.event
            }
        }
    }

    private func sleep(milliseconds: Int) async throws {
        do {
            try await Task.sleep(for: .milliseconds(milliseconds))
        } catch {
            throw ReaderError.cancelled
        }
    }

    private func sleep(until deadline: ContinuousClock.Instant) async throws {
        do {
            try await Task.sleep(until: deadline, clock: .continuous)
        } catch {
            throw ReaderError.cancelled
        }
    }

    private func checkCancelled() throws {
        if Task.isCancelled { throw ReaderError.cancelled }
    }
}
