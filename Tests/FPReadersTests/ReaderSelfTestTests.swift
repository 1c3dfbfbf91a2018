import FPReaders
import Testing

struct ReaderSelfTestTests {
    func results(_ script: String, steps: [SelfTestStep] = SelfTestStep.allCases) async throws -> [SelfTestResult] {
        let reader = FakeReader(script: try FakeScript.parse(script))
        var results: [SelfTestResult] = []
        for try await event in ReaderSelfTest(reader: reader, steps: steps).run() {
            if case .finished(let result) = event { results.append(result) }
        }
        return results
    }

    func outcomes(_ results: [SelfTestResult]) -> [String] {
        results.map { result in
            switch result.outcome {
            case .passed: "\(result.step.rawValue):passed"
            case .failed: "\(result.step.rawValue):failed"
            case .skipped: "\(result.step.rawValue):skipped"
            }
        }
    }

    @Test func runsTheSupportedStepsInOrderAndSkipsTheRest() async throws {
        let results = try await results("set stages 2\nscan t\nscan t\nscan t\nscan t")
        #expect(outcomes(results) == ["clear:skipped", "enroll:passed", "list:skipped", "verify:passed",
                                      "identify:passed", "delete:skipped"])
    }

    @Test func storageStepsRunOnAMatchOnChipReader() async throws {
        let script = "set features verify identify storage storage-list storage-delete storage-clear\n"
            + "set stages 1\nscan t\nscan t\nscan t"
        #expect(outcomes(try await results(script)) == ["clear:passed", "enroll:passed", "list:passed", "verify:passed",
                                                        "identify:passed", "delete:passed"])
    }

    @Test func aWrongFingerFailsItsStepAndAFailedEnrollSkipsWhatNeedsIt() async throws {
        #expect(outcomes(try await results("set stages 1\nscan t\nscan other", steps: [.verify, .enroll]))
                == ["enroll:passed", "verify:failed"])
        #expect(outcomes(try await results("set stages 1\nerror general", steps: [.enroll, .verify]))
                == ["enroll:failed", "verify:skipped"])
    }

    @Test func stepListsParseInRunOrderAndNameTheBadOne() throws {
        #expect(try SelfTestStep.parseList("delete,clear,enroll") == [.clear, .enroll, .delete])
        #expect(throws: ReaderError.self) { try SelfTestStep.parseList("clear,wipe") }
    }
}
