import FPFuzzing
import Foundation

// Built two ways. With -DFUZZING (scripts/fuzz.sh, linked with libFuzzer) main hands
// control to libFuzzer's driver; without it, it replays files for reproducing a
// finding: `FPBRIDGE_FUZZ_TARGET=TARGET fpbridge-fuzz FILE...`.
// (SwiftPM renames an executable's entry point and aliases `main` to it, so
// libFuzzer's own main never links: LLVMFuzzerRunDriver is the documented way in.)

private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FPBRIDGE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("set FPBRIDGE_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// libFuzzer's runtime references this symbol even when the driver is given a callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    target.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

@main
struct Fuzz {
    static func main() {
        _ = target
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv) { bytes, count in fuzzOneInput(bytes, count) })
    }
}
#else
@main
struct Replay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            target.run(data)
            print("ok \(path)")
        }
    }
}
#endif
