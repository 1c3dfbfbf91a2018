// swift-tools-version:6.1
import PackageDescription

// Seed 002's fingerprint login as a command-line app that uses only
// `import LocalAuthentication`, the way an iOS app does.
let package = Package(
    name: "FingerprintLogin",
    dependencies: [
        .package(name: "fpbridge", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "fingerprint-login",
            dependencies: [.product(name: "LocalAuthentication", package: "fpbridge")]
        ),
        .executableTarget(
            name: "minimal-login",
            dependencies: [.product(name: "LocalAuthentication", package: "fpbridge")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
