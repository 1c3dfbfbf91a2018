// swift-tools-version:6.1
import PackageDescription

// Seed 002's fingerprint login as command-line apps that use Apple's API the way an iOS app
// does: minimal-login with `LocalAuthentication` alone, which talks to fpbridged and links
// neither libfprint nor GLib; fingerprint-login with `LocalAuthenticationInProcess` as well,
// the engine in the app for development on the fake reader without fpbridged.
let package = Package(
    name: "FingerprintLogin",
    dependencies: [
        .package(name: "fpbridge", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "fingerprint-login",
            dependencies: [
                .product(name: "LocalAuthentication", package: "fpbridge"),
                .product(name: "LocalAuthenticationInProcess", package: "fpbridge"),
            ]
        ),
        .executableTarget(
            name: "minimal-login",
            dependencies: [.product(name: "LocalAuthentication", package: "fpbridge")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
