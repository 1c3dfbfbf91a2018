import FPCore
import FPLocalAPI
import ArgumentParser
import FPAuthentication
import FPReaders
import FoundationEssentials
import Glibc

struct SelfTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Check a new reader: clear, enroll, list, verify, identify, delete.",
        discussion: """
        Runs, in one open session and in this order, the steps the reader supports: \
        clear (wipes the sensor's storage), enroll (a throwaway print with no user or finger), \
        list, verify and identify (touch with the finger you enrolled), delete. Each step is \
        reported with its outcome and time. Nothing in your store of enrolled prints is read \
        or changed. Exit status 0 when every step that ran passed, 3 when one failed.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp("The steps to run, comma-separated; they run in the order above.",
                               valueName: "list"))
    var steps: String?

    @Flag(help: "Allow the clear step, which deletes every print on the sensor.")
    var yes = false

    func run() async throws {
        let console = options.console
        let requested: [SelfTestStep]
        do {
            requested = try steps.map(SelfTestStep.parseList) ?? SelfTestStep.allCases
        } catch {
            throw AuthError(error)
        }
        let reader: any FingerprintReader
        do { reader = try await options.selection().reader() } catch { throw AuthError(error) }
        let info = await reader.info
        let willRun = requested.filter { $0.isSupported(by: info.features) }
        if willRun.contains(.clear) && !yes {
            throw AuthError(.invalidInput, "the clear step deletes every print on \(info.identity) (\(info.name)); "
                            + "add --yes to allow it, or leave it out with --steps")
        }
        console.note("Self-test of \(info.name) (\(info.identity)): "
                     + (willRun.isEmpty ? "no step applies" : willRun.map(\.rawValue).joined(separator: ", ")))
        var results: [SelfTestResult] = []
        do {
            for try await event in ReaderSelfTest(reader: reader, steps: requested).run() {
                switch event {
                case .started(let step, let needsFinger):
                    console.note(needsFinger ? "\(step.rawValue): \(info.scanType.instruction)…" : "\(step.rawValue)…")
                case .enrollProgress(.stageCompleted(let completed, let total)):
                    console.note("  stage \(completed)/\(total) done")
                case .enrollProgress(.retry(let reason)):
                    console.note("  \(reason.hint)")
                case .enrollProgress(.enrolled):
                    break
                case .finished(let result):
                    results.append(result)
                    console.note("  " + Self.line(result))
                }
            }
        } catch {
            throw AuthError(error)
        }
        let fields: [String: JSONValue] = ["reader": ReadersCommand.json(info), "steps": .array(results.map(Self.json))]
        let failed = results.filter(\.failed)
        guard failed.isEmpty else {
            throw CommandFailure(error: AuthError(.readerFailure, "self-test failed at "
                                                  + failed.map(\.step.rawValue).joined(separator: ", ")),
                                 fields: fields)
        }
        let ran = results.filter { if case .passed = $0.outcome { true } else { false } }.count
        console.success("Self-test passed: \(ran) step\(ran == 1 ? "" : "s") on \(info.identity).", fields)
    }

    static func line(_ result: SelfTestResult) -> String {
        let hundredths = Int((result.duration.inSeconds * 100).rounded())
        let seconds = "\(hundredths / 100).\(String(hundredths % 100).leftPadded(to: 2)) s"
        switch result.outcome {
        case .passed(let detail): return "ok      \(result.step.rawValue) (\(seconds)): \(detail)"
        case .failed(let detail): return "FAILED  \(result.step.rawValue) (\(seconds)): \(detail)"
        case .skipped(let detail): return "skipped \(result.step.rawValue): \(detail)"
        }
    }

    static func json(_ result: SelfTestResult) -> JSONValue {
        let (outcome, detail): (String, String) = switch result.outcome {
        case .passed(let detail): ("passed", detail)
        case .failed(let detail): ("failed", detail)
        case .skipped(let detail): ("skipped", detail)
        }
        return ["step": .string(result.step.rawValue), "outcome": .string(outcome), "detail": .string(detail),
                "seconds": .double(result.duration.inSeconds)]
    }
}
