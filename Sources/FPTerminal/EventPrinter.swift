import FPVocabulary
import FoundationEssentials
import Glibc

/// Shows an evaluation's events on stderr as a terminal prompt would.
package enum EventPrinter {
    /// `verbose` adds what only a curious user wants (how long matching took).
    package static func text(_ event: AuthEvent, fallbackKey: Bool = false, verbose: Bool = false) -> String {
        switch event {
        case .printsCompared(let compared, let count, let seconds):
            "  Compared with \(compared) of \(count) enrolled print\(count == 1 ? "" : "s")"
                + (verbose ? seconds.map { " in \(Int(($0 * 1000).rounded())) ms" } ?? " (by libfprint, not timed)" : "") + "."

        case .presentFinger(let scanType): "\(scanType.instruction)…"
        case .fingerDetected: "  Reading…"
        case .retryHint(let reason): "  \(reason.hint)"
        case .noMatch(let left, let beforeLockout):
            "  No match. \(left) attempt\(left == 1 ? "" : "s") left in this prompt, \(beforeLockout) before lockout."
        case .fallbackOffered(let title) where fallbackKey: "  Press Enter for [\(title)], or touch the reader again."
        case .fallbackOffered(let title): "  [\(title)] is now available (choose it to use your passcode instead)."
        case .lockedOut: "  Too many failed attempts: fingerprint is locked out."
        case .printSkipped(let why): "  Left out of this identification: \(why)"
        case .readerWarming(let seconds):
            "  The reader is warm from scanning: it stops in about \(SecondsText.words(seconds.rounded(.up))) unless the scan ends."
        case .passcodeRequested(let left): "Enter your passcode (\(left) attempt\(left == 1 ? "" : "s") before passcode lockout)."
        case .passcodeRejected(let left): "  Wrong passcode; \(left) attempt\(left == 1 ? "" : "s") left before lockout."
        case .matched(let user, let finger): "  Matched \(user)\(finger.map { "'s \($0.rawValue)" } ?? "")."
        case .identificationScored(let confidence): "  \(confidence.summary)."
        case .anotherTouch: "  Too close to tell: touch the reader once more with the same finger."
        }
    }

    /// Prints the events (an engine context's `events`) until the stream ends, when the context is
    /// invalidated; await the task to flush.
    package static func start(for events: AsyncStream<AuthEvent>, fallbackKey: Bool = false, verbose: Bool = false,
                      write: @escaping @Sendable (String) -> Void) -> Task<Void, Never> {
        Task {
            for await event in events {
                write(text(event, fallbackKey: fallbackKey, verbose: verbose))
            }
        }
    }
}
