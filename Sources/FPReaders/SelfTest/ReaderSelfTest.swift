import FPCore
import FoundationEssentials

/// A hardware check for a new reader: the steps it supports, in one open session.
///
/// The print it enrolls is bare (no user, finger or date: match-on-chip drivers
/// would write such metadata onto the sensor) and lives only in memory; nothing
/// here touches any user's stored prints.
public struct ReaderSelfTest: Sendable {
    /// How long a self-test step waits for the finger.
    static let fingerTimeout = Duration.seconds(30)

    /// The reader tested; opened and closed by the test.
    public let reader: any FingerprintReader
    /// The steps to run, in order.
    public let steps: [SelfTestStep]

    /// `steps` are run in ``SelfTestStep``'s order whatever order they are given in.
    public init(reader: any FingerprintReader, steps: [SelfTestStep] = SelfTestStep.allCases) {
        self.reader = reader
        self.steps = Array(Set(steps)).sorted()
    }

    /// Runs the steps on an unopened reader: one open, the steps, one close.
    /// The stream ends after the last step; an open failure ends it with that error.
    public func run() -> AsyncThrowingStream<SelfTestEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<SelfTestEvent, any Error>.makeStream()
        let task = Task { [reader, steps] in
            do {
                try await reader.open()
            } catch {
                continuation.finish(throwing: error)
                return
            }
            var runner = Runner(reader: reader, emit: { continuation.yield($0) })
            let features = await reader.info.features
            for step in steps {
                if Task.isCancelled { break }
                continuation.yield(.finished(await runner.run(step, features: features)))
            }
            try? await reader.close()
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// Runs the steps one by one, keeping the enrolled print between them.
private struct Runner {
    let reader: any FingerprintReader
    let emit: (SelfTestEvent) -> Void
    var enrolled: PrintData?

    mutating func run(_ step: SelfTestStep, features: ReaderFeatures) async -> SelfTestResult {
        guard step.isSupported(by: features) else {
            return SelfTestResult(step: step, outcome: .skipped("this reader does not support it"), duration: .zero)
        }
        if step.needsEnrolledPrint && enrolled == nil {
            return SelfTestResult(step: step, outcome: .skipped("no print was enrolled in this session"), duration: .zero)
        }
        emit(.started(step, needsFinger: [.enroll, .verify, .identify].contains(step)))
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: SelfTestResult.Outcome
        do {
            outcome = try await perform(step)
        } catch {
            outcome = .failed(String(describing: error))
        }
        return SelfTestResult(step: step, outcome: outcome, duration: clock.now - start)
    }

    private mutating func perform(_ step: SelfTestStep) async throws -> SelfTestResult.Outcome {
        switch step {
        case .clear:
            try await reader.clearStorage()
            return .passed("the sensor's storage is empty")
        case .enroll:
            var stages = 0
            for try await event in reader.enroll(.bare) {
                emit(.enrollProgress(event))
                switch event {
                case .stageCompleted(let completed, _): stages = completed
                case .enrolled(let print): enrolled = print.data
                case .retry: break
                }
            }
            return enrolled == nil ? .failed("the enrollment ended without a print") : .passed("\(stages) stages")
        case .list:
            let listed = try await reader.listStoredPrints()
            return listed.isEmpty ? .failed("the sensor lists no prints after an enrollment")
                : .passed("\(listed.count) print\(listed.count == 1 ? "" : "s") on the sensor")
        case .verify:
            guard let matcher = reader as? any PrintMatching else { return .failed("this reader cannot match prints") }
            return describe(try await matcher.verify(enrolled!, fingerTimeout: ReaderSelfTest.fingerTimeout))
        case .identify:
            guard let matcher = reader as? any PrintMatching else { return .failed("this reader cannot match prints") }
            return describe(try await matcher.identify([enrolled!], fingerTimeout: ReaderSelfTest.fingerTimeout))
        case .delete:
            try await reader.deleteStoredPrint(enrolled!)
            return .passed("the print is gone from the sensor")
        }
    }

    private func describe(_ outcome: MatchOutcome) -> SelfTestResult.Outcome {
        switch outcome {
        case .match: .passed("the finger matched the enrolled print")
        case .noMatch: .failed("the finger did not match the enrolled print (use the finger you enrolled)")
        case .retry(let reason): .failed("the scan was not usable: \(reason)")
        case .userChoice(let choice): .failed("the user chose \(choice.rawValue)")
        }
    }
}
