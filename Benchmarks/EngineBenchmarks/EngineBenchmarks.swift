import Benchmark
import FPAuthentication
import FPStore
import Foundation
import Synchronization

// In-process measures of the engine on the fake reader: what an evaluation costs without a
// process to start or a real reader to wait for. `bash bench/inprocess.sh` runs them through
// `swift package benchmark`; the test script runs the debug build once with
// FPBRIDGE_BENCH_SMOKE set, which proves that they run and measures nothing.

private let smoke = getenv("FPBRIDGE_BENCH_SMOKE") != nil
private let galleryUsers = smoke ? 20 : 1_000
private let shared = Mutex<EngineFixture?>(nil)

/// Ends the run with what failed, the fixture removed. Run directly (the smoke run), the
/// benchmark library drops a benchmark's error and exits 0, so a failure must end the
/// process itself to be seen.
private func fail(_ what: String, _ error: any Error) -> Never {
    shared.withLock { $0 }?.remove()
    FileHandle.standardError.write(Data("EngineBenchmarks: \(what) failed: \(error)\n".utf8))
    exit(1)
}

/// Runs `body` once for each of the iterations the library asks of this call.
private func iterate(_ benchmark: Benchmark, _ body: (EngineFixture) async throws -> Void) async {
    do {
        guard let fixture = shared.withLock({ $0 }) else { throw FixtureError("the fixture was not set up") }
        for _ in benchmark.scaledIterations { try await body(fixture) }
    } catch {
        fail("'\(benchmark.name)'", error)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: smoke ? .milliseconds(1) : .seconds(3),
        maxIterations: smoke ? 2 : 1_000
    )
    Benchmark.setup = {
        do {
            let made = try await EngineFixture(galleryUsers: galleryUsers)
            shared.withLock { $0 = made }
        } catch {
            fail("setting up the state directory", error)
        }
    }
    Benchmark.teardown = {
        shared.withLock { fixture in
            fixture?.remove()
            fixture = nil
        }
    }

    // `fpbridge verify`'s engine path: the lockout check, the user's prints read and checked,
    // one scan, the match, the counter left as it was.
    Benchmark("verify: one match") { benchmark in
        await iterate(benchmark) { fixture in
            blackHole(try await fixture.context("scan alice-1").verifyFinger(reason: "benchmark"))
        }
    }

    // Identification among every user enrolled on the reader, each print file read, decoded
    // and checked, as a one-process CLI does ...
    Benchmark("identify: \(galleryUsers + 1) prints, files read every time") { benchmark in
        await iterate(benchmark) { fixture in
            blackHole(try await fixture.context("scan alice-1").identify(reason: "benchmark"))
        }
    }

    // ... and with the files kept decoded between operations, as fpbridged keeps them (the
    // fixture's cache, filled when it was made: the library calls a closure once per sample).
    Benchmark("identify: \(galleryUsers + 1) prints, kept decoded (fpbridged)") { benchmark in
        await iterate(benchmark) { fixture in
            blackHole(try await fixture.context("scan alice-1", cache: fixture.printCache).identify(reason: "benchmark"))
        }
    }

    // The passcode check behind enrollment and the fallback: scrypt at the default N=32768, r=8.
    Benchmark("passcode: one correct entry") { benchmark in
        await iterate(benchmark) { fixture in
            let prompt = ListedPasscodes([Passcode("2468")])
            blackHole(try await fixture.context("").unlockWithPasscode(reason: "benchmark", prompt: prompt))
        }
    }
}
