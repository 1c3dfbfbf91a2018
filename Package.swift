// swift-tools-version:6.1
import PackageDescription

// The library layers use FoundationEssentials only (Foundation proper, with its NS classes
// and ICU, is a third of a statically linked CLI and slows every start: BENCHMARKS.md).
// They import FoundationEssentials, and with MemberImportVisibility an API that Foundation
// adds is not reachable through another module's import either: the compiler keeps it so.
let foundationEssentialsOnly: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

// The in-process engine (libfprint, GLib, the rules' engine) is opt-in by product, not by package
// trait (SE-0450): a trait's defaults are the same for this package and for an app that names no
// traits, so an engine trait would either be in every app or out of this package's own builds (every
// script and CI step passing --traits, each switch rebuilding the package's modules). The products an
// app starts from reach fpbridged only; the *InProcess products add the engine for those who want it.
// scripts/client-links-check.sh proves the first kind links neither libfprint nor GLib.
let package = Package(
    name: "fpbridge",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fpbridge", targets: ["fpbridge"]),
        .executable(name: "fpbridged", targets: ["fpbridged"]),
        .executable(name: "fpbridge-server", targets: ["fpbridge-server"]),
        .executable(name: "fpbridge-service-probe", targets: ["fpbridge-service-probe"]),
        .executable(name: "fpbridge-kiosk", targets: ["fpbridge-kiosk"]),
        .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
        .library(name: "LocalAuthenticationInProcess", targets: ["LocalAuthenticationInProcess"]),
        .library(name: "FingerprintLogin", targets: ["FingerprintLogin"]),
        .library(name: "FingerprintLoginInProcess", targets: ["FingerprintLoginInProcess"]),
        .library(name: "FPAuthentication", targets: ["FPAuthentication"]),
        .library(name: "FPReaders", targets: ["FPReaders"]),
        .library(name: "FPStore", targets: ["FPStore"]),
        // For the in-process benchmarks (Benchmarks/MatcherBenchmarks).
        .library(name: "FPMatching", targets: ["FPMatching"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // libfprint 2 and GLib in Swift (C interop): the readers' one way to the hardware.
        .systemLibrary(
            name: "CLibfprint",
            pkgConfig: "libfprint-2",
            providers: [.apt(["libfprint-2-dev", "libglib2.0-dev"])]
        ),
        // libpng in Swift, for the PNG files of FPImaging.
        .systemLibrary(
            name: "CLibpng",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // Typed twins of Linux calls Swift cannot import: core dumps off, secure execution, renameat2, opening as a uid.
        .systemLibrary(name: "CProcessSecurity"),
        // Presence on logind's records (issue 49), C shared with pam_fpbridge.so: who is at the seat, for the passkey device.
        .target(name: "CSeatPresence", cSettings: [.define("_GNU_SOURCE")]),
        // tpm2-tss, for the device identity key in a TPM 2.0 (fpbridged --tpm). Its headers are
        // in /usr/include; its pkg-config adds -pthread, which SwiftPM refuses with a warning.
        .systemLibrary(name: "CTSS2", providers: [.apt(["libtss2-dev"])]),
        // What the engine and the clients of its service both speak (errors and their codes, events,
        // fingers, policies, reader identities, key access controls): no C library, so that a client
        // of the socket links neither libfprint nor GLib.
        .target(name: "FPVocabulary", swiftSettings: foundationEssentialsOnly),
        // Below the engine's layers: a print's bytes, atomic file replacement, process helpers; re-exports FPVocabulary.
        .target(name: "FPCore", dependencies: ["FPVocabulary", "CProcessSecurity", .product(name: "SystemPackage", package: "swift-system")],
                swiftSettings: foundationEssentialsOnly),
        // JSON values for output and a strict request reader that names the field it refuses (FPVocabulary: the lock).
        .target(name: "FPJSON", dependencies: ["FPVocabulary"], swiftSettings: foundationEssentialsOnly),
        // The passkey authenticator (issue 52): CTAPHID's channels and packets, CTAP2's canonical CBOR and commands over FPAuthentication's passkeys, the /dev/uhid device.
        .target(
            name: "FPPasskeys",
            dependencies: ["FPCore", "FPAuthentication", "FPStore", .product(name: "Crypto", package: "swift-crypto"),
                           // AES-CBC, which CTAP's PIN/UV auth protocols encrypt with.
                           .product(name: "CryptoExtras", package: "swift-crypto"),
                           .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: foundationEssentialsOnly
        ),
        // bozorth3's scores as libfprint computes them, in Swift (issue 26): only FPCore, for the bounded threads a search runs on.
        .target(name: "FPMatching", dependencies: ["FPCore"], swiftSettings: foundationEssentialsOnly),
        // What keys sign and attest, the one scrypt and hex codec every secret and digest uses, without libfprint.
        .target(
            name: "FPKeyFormats",
            dependencies: [.product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto")],
            swiftSettings: foundationEssentialsOnly
        ),
        // The login server's wire format, shared by the server, its clients and the load generator.
        .target(name: "FPAccountAPI", dependencies: ["FPKeyFormats"]),
        // The device identity key in a TPM 2.0 and the TPM's endorsement key: fpbridged only.
        .target(
            name: "FPTPM",
            dependencies: ["CTSS2", "FPKeyFormats", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: foundationEssentialsOnly
        ),
        // The login server: rules in Rules/, one SQL text for SQLite and PostgreSQL in Store/.
        .target(
            name: "FPAccountServer",
            dependencies: [
                "FPAccountAPI", "FPKeyFormats", "FPJSON", "FPCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The login server's client library: fingerprint login and payment from this machine (fpbridge account).
        .target(
            name: "FingerprintLogin",
            dependencies: [
                "FPAccountAPI", "FPKeyFormats", "FPVocabulary", "FPLocalAPI", "FPServiceClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The login client's in-process keyring (ContextKeyring), for development with the fake reader and no
        // fpbridged: opt-in, so that FingerprintLogin links no engine (why a product: the note at the top of this file).
        .target(name: "FingerprintLoginInProcess", dependencies: ["FingerprintLogin", "FPAuthentication"]),
        // A program on FingerprintLogin alone, as an app links it: scripts/client-links-check.sh proves with it
        // that the login client links neither libfprint nor GLib.
        .executableTarget(name: "fingerprint-login-probe", dependencies: ["FingerprintLogin"]),
        // Software devices that sign without a reader, for the load generator.
        .target(
            name: "FPAccountLoad",
            dependencies: ["FPAccountAPI", "FPKeyFormats", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The login server's load generator (bench/login.py).
        .executableTarget(
            name: "fpbridge-login-bench",
            dependencies: [
                "FPAccountAPI", "FPAccountLoad", "FPVocabulary",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The accuracy benchmark's score matrices and 1:N decisions (bench/accuracy.py): bozorth3 over serialized prints, cached.
        .executableTarget(
            name: "fpbridge-accuracy",
            dependencies: [
                "FPCore", "FPMatching", "FPReaders",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The login server's executable: fingerprint login and payment over HTTPS (or HTTP on loopback).
        .executableTarget(
            name: "fpbridge-server",
            dependencies: [
                "FPAccountServer", "CProcessSecurity",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Scans as images: PGM and PNG (fpbridge capture).
        .target(name: "FPImaging", dependencies: ["FPCore", "CLibpng"], swiftSettings: foundationEssentialsOnly),
        // Reader protocol, fake reader, libfprint backend: every libfprint and GObject call is isolated to the
        // GLibLoop global actor, whose executor is the GLib loop thread; self-test, libfprint's device list, udev rules.
        .target(
            name: "FPReaders",
            dependencies: [
                "FPCore", "CLibfprint", "FPMatching",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: foundationEssentialsOnly
        ),
        // The state files, the cross-process lock and repairs' quarantine.
        .target(
            name: "FPStore",
            dependencies: [
                "FPCore", "FPKeyFormats",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: foundationEssentialsOnly
        ),
        // The LAContext-like engine, in folders by concern: Context, Evaluation, Lockout (every lockout rule in
        // LockoutRules.swift), Passcode, Keys, Enrollment, Repair, Support.
        .target(
            name: "FPAuthentication",
            dependencies: [
                "FPCore", "FPReaders", "FPStore", "FPKeyFormats", "FPMatching",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: foundationEssentialsOnly
        ),
        // Terminal prompts shared by the CLI and LocalAuthentication, on FPCore alone: no engine, for LocalAuthentication's service path.
        .target(name: "FPTerminal", dependencies: ["FPCore"], swiftSettings: foundationEssentialsOnly),
        // Apple's API over the service, with its DocC catalog; the engine in-process only through
        // LocalAuthenticationInProcess (why a product: the note at the top of this file).
        .target(
            name: "LocalAuthentication",
            dependencies: ["FPVocabulary", "FPCore", "FPStore", "FPKeyFormats", "FPTerminal", "FPLocalAPI", "FPServiceClient"]
        ),
        // LocalAuthentication's in-process engine, opt-in: development with the fake reader and no fpbridged, the tests.
        .target(name: "LocalAuthenticationInProcess", dependencies: ["LocalAuthentication", "FPAuthentication", "FPTerminal"]),
        // A program on LocalAuthentication alone, as an app links it: scripts/client-links-check.sh proves with it
        // that Apple's API links neither libfprint nor GLib.
        .executableTarget(name: "local-authentication-probe", dependencies: ["LocalAuthentication"]),
        // The wire format, on the vocabulary alone; FPLocalAPIEngine builds it from the engine's
        // types for the service and the CLI's in-process commands.
        .target(name: "FPLocalAPI", dependencies: ["FPVocabulary", "FPJSON"], swiftSettings: foundationEssentialsOnly),
        // The wire types built from the engine's, the status report, repairs and opening a reader: the service's side.
        .target(name: "FPLocalAPIEngine", dependencies: ["FPLocalAPI", "FPAuthentication"], swiftSettings: foundationEssentialsOnly),
        // The service: routes, peer-credential authorisation, reader arbitration, suspend handling, fprintd's D-Bus face.
        .target(
            name: "FPService",
            dependencies: [
                // FPTPM stays linked (issue 41 §6 asked for it opt-in): a default-off trait would make
                // every build call of the scripts, the Makefile and the packaging pass `--traits`
                // (or the TPM suites and `--tpm` in the packages go), and a default-on one is not
                // opt-in. fpbridged opens no TPM without `--tpm`; the cost is libtss2's few
                // libraries on the service's machine, not an app's.
                "FPLocalAPI", "FPLocalAPIEngine", "FPAuthentication", "FPReaders", "FPStore", "CProcessSecurity", "FPTPM",
                "FPPasskeys", "CSeatPresence",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // The stop's order (operations end before the server closes): ``ServiceStop``.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The stop signals trapped before anything else starts: ``StopSignals``.
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The client of fpbridged (CLI, LocalAuthentication, kiosk): NIO's HTTP/1.1 codec over the socket, one
        // connection per request; it links neither libfprint nor GLib.
        .target(
            name: "FPServiceClient",
            dependencies: [
                "FPLocalAPI", "FPVocabulary",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: foundationEssentialsOnly
        ),
        // The service's executable: one engine behind the socket and fprintd's D-Bus API.
        .executableTarget(
            name: "fpbridged",
            dependencies: [
                "FPService", "FPStore", "CProcessSecurity",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The command-line tool: in-process engine or a client of fpbridged.
        .executableTarget(
            name: "fpbridge",
            dependencies: [
                "FPCore", "FPReaders", "FPStore", "FPAuthentication", "FPTerminal", "FPImaging", "CProcessSecurity",
                "FPJSON", "FPLocalAPI", "FPLocalAPIEngine", "FPServiceClient", "FingerprintLogin", "FingerprintLoginInProcess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: foundationEssentialsOnly
        ),
        // A client of fpbridged and nothing else: scripts/client-links-check.sh proves with it
        // that the service's client links neither libfprint nor GLib.
        .executableTarget(name: "fpbridge-service-probe", dependencies: ["FPServiceClient"], swiftSettings: foundationEssentialsOnly),
        // The kiosk: an identify loop that never overheats the reader, a PIN pad and a page, served
        // on loopback; a client of fpbridged only (no libfprint, no engine).
        .target(
            name: "FPKiosk",
            dependencies: [
                "FPServiceClient", "FPVocabulary", "FPAccountAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The kiosk's executable.
        .executableTarget(
            name: "fpbridge-kiosk",
            dependencies: [
                "FPKiosk",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The fuzz targets: every parser of what users, files and readers hand fpbridge.
        .target(name: "FPFuzzing", dependencies: ["FPCore", "FPReaders", "FPStore", "FPAuthentication", "FPPasskeys"]),
        // The libFuzzer binary over FPFuzzing (scripts/fuzz.sh).
        .executableTarget(name: "fpbridge-fuzz", dependencies: ["FPFuzzing"]),
        // Loaded with every test binary: a SIGPIPE in a test process is reported, never fatal.
        .target(name: "CTestProcess", path: "Tests/CTestProcess"),
        // What the test suites share: virtual readers, the real fpbridged, kiosk and login server as processes, mocks.
        .target(name: "TestSupport", dependencies: ["FPCore", "CLibfprint", "CTestProcess"], path: "Tests/TestSupport"),
        .testTarget(name: "FPReadersTests", dependencies: ["FPReaders", "TestSupport"]),
        .testTarget(name: "FPImagingTests", dependencies: ["FPImaging", "TestSupport"]),
        .testTarget(name: "FPStoreTests", dependencies: ["FPStore", "TestSupport"]),
        .testTarget(name: "FPAuthenticationTests", dependencies: ["FPAuthentication", "FPReaders", "FPStore", "FPLocalAPI", "TestSupport"]),
        .testTarget(
            name: "LocalAuthenticationTests",
            dependencies: ["LocalAuthentication", "LocalAuthenticationInProcess", "FPAuthentication", "FPTerminal", "TestSupport"]
        ),
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "FPImaging", "FPServiceClient", "FPAuthentication", "FPLocalAPI", "FPService"]),
        .testTarget(name: "FingerprintLoginTests", dependencies: ["FingerprintLogin", "TestSupport"]),
        .testTarget(
            name: "AccountServerTests",
            dependencies: ["TestSupport", "FPAccountAPI", "FPAccountLoad", "FPAccountServer", "FPKeyFormats", "FPCore",
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "KioskTests", dependencies: ["FPKiosk", "FPLocalAPI", "FPVocabulary", "TestSupport"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FPFuzzing", "TestSupport"]),
        .testTarget(name: "FPMatchingTests", dependencies: ["FPMatching", "FPCore"], exclude: ["Fixtures"]),
        .testTarget(name: "FPPasskeysTests", dependencies: ["FPPasskeys", "FPAuthentication", "FPReaders", "FPStore", "TestSupport",
                                                           .product(name: "Crypto", package: "swift-crypto")]),
    ],
    swiftLanguageModes: [.v6]
)
