import FPAuthentication
import FPCore
import FPPasskeys
@_spi(Fuzzing) import FPReaders
import FPStore
import Foundation

/// The parsers that read what a user, a file or a reader hands fpbridge, each as
/// a function of raw bytes that must return (an error is fine) and never crash,
/// hang or exhaust memory. libFuzzer drives them (`scripts/fuzz.sh`); the test
/// suite replays the committed corpus through them.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The fake reader's script language.
    case fakeScript = "fake-script"
    /// A print record file, loaded and checked as identification does.
    case printRecord = "print-record"
    /// An attempt counter file (and, with the same bytes, a user's authentication times).
    case counter
    /// A passcode record file.
    case passcodeRecord = "passcode-record"
    /// `config.json`.
    case config
    /// Serialised libfprint print bytes, checked and handed to `fp_print_deserialize`.
    case libfprintPrint = "libfprint-print"
    /// A stored NBIS print's bytes as the host matcher reads them: decoded, tables built, compared.
    case nbisTemplate = "nbis-template"
    /// Raw minutiae, any int32 values, compared by the host matcher both ways.
    case bozorth3Minutiae = "bozorth3-minutiae"
    /// A CBOR message as a passkey host sends it; what decodes must encode and decode back unchanged.
    case cbor
    /// HID reports to the passkey authenticator's CTAPHID transport, with time passing between them.
    case ctaphid
    /// A CTAP2 message (a command byte, then CBOR) as the authenticator reads it before any
    /// finger is asked: makeCredential's and getAssertion's parameters, and clientPIN's with
    /// its key agreement and decryption.
    case ctap2Request = "ctap2-request"

    /// Feeds one input to the target.
    public func run(_ data: Data) {
        switch self {
        case .fakeScript:
            _ = try? FakeScript.parse(String(decoding: data, as: UTF8.self))
        case .printRecord:
            let state = Self.scratch.state
            Self.write(data, to: state.file("prints", "alice", "fake", "0", "right-index.json"))
            _ = try? PrintStore(directory: state).checkedEntries(user: "alice", reader: nil)
        case .counter:
            let store = CounterStore(directory: Self.scratch.state)
            Self.write(data, to: store.path(for: .user("alice")))
            _ = store.counter(for: .user("alice"))
            // The user's authentication times live beside the counter, in the same JSON shape:
            // the same input, no second target (and no more of CI's fuzzing budget).
            Self.write(data, to: store.timesPath(user: "alice"))
            _ = store.times(user: "alice")
        case .passcodeRecord:
            let store = PasscodeStore(directory: Self.scratch.state)
            Self.write(data, to: store.directory.file("passcodes", "alice.json"))
            _ = try? store.record(user: "alice")
        case .config:
            let state = Self.scratch.state
            Self.write(data, to: ConfigFile.path(in: state))
            _ = try? AuthConfiguration.load(from: state)
        case .libfprintPrint:
            LibfprintFuzzing.decode(Array(data))
        case .nbisTemplate:
            MatcherFuzzing.match(print: Array(data))
        case .bozorth3Minutiae:
            MatcherFuzzing.match(minutiae: Array(data))
        case .cbor:
            PasskeyFuzzing.decode(Array(data))
        case .ctaphid:
            PasskeyFuzzing.transport(Array(data))
        case .ctap2Request:
            PasskeyFuzzing.request(Array(data))
        }
    }

    /// A 0700 state directory of this process's own, made once.
    private static let scratch = Scratch()

    /// Replaces a file's contents with plain system calls: the input, not the harness, should take the time.
    private static func write(_ data: Data, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        data.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

/// A 0700 state directory with every folder the targets write into, on tmpfs when there is one.
private final class Scratch: Sendable {
    let state: StateDirectory
    init() {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        state = StateDirectory(path: base + "fpbridge-fuzz-\(getpid())/state")
        for folder in ["prints/alice/fake/0", "counters", "passcodes"] {
            try? FileManager.default.createDirectory(atPath: state.file(folder), withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        chmod((state.path as NSString).deletingLastPathComponent, 0o700)
    }
}
