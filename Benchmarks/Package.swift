// swift-tools-version:6.1
import PackageDescription

// The engine's in-process benchmarks, a package of their own so that fpbridge's own
// package, and every package that depends on it, neither resolves nor builds the
// benchmark library. Run them with `bash bench/inprocess.sh` from the repository root.
// ordo-one's benchmark with its malloc counting only: its Swift 6.3 runtime interposer
// is not on this machine's package list. Needs Swift 6.3 (the library's manifest for
// older toolchains has no such trait).
let package = Package(
    name: "fpbridge-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Named: a path dependency is otherwise known by its directory name, which is a clone's.
        .package(name: "fpbridge", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "FPAuthentication", package: "fpbridge"),
                .product(name: "FPReaders", package: "fpbridge"),
                .product(name: "FPStore", package: "fpbridge"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // bozorth3 per comparison (issue 26): no engine, no fixture state directory.
        .executableTarget(
            name: "MatcherBenchmarks",
            dependencies: [
                .product(name: "FPMatching", package: "fpbridge"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "MatcherBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
