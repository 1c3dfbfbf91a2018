import FPCore
import FoundationEssentials
import Glibc

/// One thing that happens at the fake reader, as a script line describes it.
public enum FakeEvent: Sendable, Hashable {
    /// A finger touches the reader. Prints enrolled from one id match that id only.
    case scan(String)
    /// The reader asks for the finger again.
    case retry(RetryReason)
    /// The reader fails with the named libfprint error.
    case error(FakeErrorName)
    /// The reader is pulled out.
    case unplug
    /// Nothing happens for a while.
    case wait(milliseconds: Int)
    /// The user presses the prompt's cancel button.
    case cancel
    /// The user presses the prompt's fallback button.
    case fallback
}

/// Reader errors a script can raise with `error NAME`.
public enum FakeErrorName: String, Sendable, Hashable, CaseIterable {
    /// libfprint's general error.
    case general
    /// The operation is not supported.
    case notSupported = "not-supported"
    /// The reader is busy.
    case busy
    /// A protocol error between driver and reader.
    case proto
    /// The reader rejected the print data.
    case dataInvalid = "data-invalid"
    /// The print is not in the sensor's storage.
    case dataNotFound = "data-not-found"
    /// The sensor's storage is full.
    case dataFull = "data-full"
    /// The sensor already holds this finger.
    case dataDuplicate = "data-duplicate"
    /// The reader was unplugged.
    case removed
    /// The reader overheated.
    case tooHot = "too-hot"
    /// The reader timed out.
    case timedOut = "timed-out"

    var readerError: ReaderError {
        switch self {
        case .general: .general("the fake reader reported a general error")
        case .notSupported: .notSupported("this operation")
        case .busy: .busy
        case .proto: .protocolError("the fake reader reported a protocol error")
        case .dataInvalid: .dataInvalid("the fake reader rejected the print data")
        case .dataNotFound: .printNotFound
        case .dataFull: .storageFull
        case .dataDuplicate: .duplicatePrint
        case .removed: .removed
        case .tooHot: .tooHot(usableInSeconds: nil)
        case .timedOut: .timedOut
        }
    }
}

/// A parsed fake-reader script: reader settings plus the events, each with its line number.
///
/// Format, one item per line; `#` starts a comment; blank lines are ignored:
///
///     set stages 3                 # enroll stages (default 5)
///     set scan-type swipe          # press (default) or swipe
///     set features verify,identify # feature names as `fpbridge readers` prints them
///     set name My test reader
///     set latency 20               # milliseconds before each event takes effect
///     scan alice-1                 # a touch by finger id "alice-1"
///     scan alice-1 bob-1=51        # the same, scoring 51 against bob-1's prints when identifying
///     retry too-short              # too-short | center | remove | general
///     error too-hot                # see FakeErrorName
///     unplug
///     wait 250
///     cancel                       # the user presses Cancel
///     fallback                     # the user presses the fallback button
public struct FakeScript: Sendable, Hashable {
    /// One event with the line it came from.
    public struct Line: Sendable, Hashable {
        /// The line number in the script file, from 1.
        public let number: Int
        /// What happens.
        public let event: FakeEvent
        /// For a `scan`: the scores the finger gets against other fingers' prints in an
        /// identification (`scan alice-1 bob-1=51`); every other print scores 0, the finger's own 300.
        public let scores: [String: Int]

        /// A line from its parts.
        public init(number: Int, event: FakeEvent, scores: [String: Int] = [:]) {
            self.number = number
            self.event = event
            self.scores = scores
        }
    }

    /// The events, in order.
    public var events: [Line] = []
    /// The reader's settings from the `set` lines.
    public var settings = FakeReaderSettings()

    /// A script with these events and settings.
    public init(events: [Line] = [], settings: FakeReaderSettings = FakeReaderSettings()) {
        self.events = events
        self.settings = settings
    }

    /// Reads and parses a script file.
    public static func load(path: String) throws(ReaderError) -> FakeScript {
        // A device or FIFO named as a script (/dev/zero, a pipe nobody writes) must not
        // fill memory or hang: regular files only, and small ones.
        var info = stat()
        guard stat(path, &info) == 0 else { throw .invalidScript("cannot read script file '\(path)'") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .invalidScript("script file '\(path)' is not a regular file") }
        guard info.st_size <= maximumSize else {
            throw .invalidScript("script file '\(path)' is over \(maximumSize / 1024) KiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidScript("cannot read script file '\(path)'")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidScript("script file '\(path)' is not UTF-8 text")
        }
        do {
            return try parse(text)
        } catch {
            throw .invalidScript("\(path): \(error.message)")
        }
    }

    /// The largest script file read.
    public static let maximumSize = 1024 * 1024

    /// Parses script text; errors name the offending line.
    public static func parse(_ text: String) throws(FakeScriptError) -> FakeScript {
        var script = FakeScript()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let verb = words.first else { continue }
            let args = Array(words.dropFirst())
            func fail(_ why: String) -> FakeScriptError {
                FakeScriptError(message: "line \(number): \(why)")
            }
            func single(_ what: String) throws(FakeScriptError) -> String {
                guard args.count == 1 else { throw fail("'\(verb)' takes exactly one \(what)") }
                return args[0]
            }
            switch verb {
            case "set":
                guard args.count >= 2 else { throw fail("'set' takes a name and a value") }
                do {
                    try script.settings.apply(args[0], Array(args.dropFirst()))
                } catch {
                    throw fail(error.message)
                }
            case "scan":
                guard let id = args.first else { throw fail("'scan' takes a finger id") }
                var scores: [String: Int] = [:]
                for pair in args.dropFirst() {
                    let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
                    guard parts.count == 2, !parts[0].isEmpty, let score = Int(parts[1]), (0...10_000).contains(score) else {
                        throw fail("'scan' takes a finger id, then OTHER=SCORE pairs (a score 0-10000); '\(pair)' is not one")
                    }
                    guard String(parts[0]) != id else { throw fail("'scan \(id)' cannot give its own finger a score ('\(pair)')") }
                    scores[String(parts[0])] = score
                }
                script.events.append(Line(number: number, event: .scan(id), scores: scores))
            case "retry":
                let name = try single("reason")
                guard let reason = RetryReason(rawValue: name) else {
                    throw fail("unknown retry reason '\(name)'; use one of: "
                        + RetryReason.allCases.map(\.rawValue).joined(separator: ", "))
                }
                script.events.append(Line(number: number, event: .retry(reason)))
            case "error":
                let name = try single("error name")
                guard let error = FakeErrorName(rawValue: name) else {
                    throw fail("unknown error name '\(name)'; use one of: "
                        + FakeErrorName.allCases.map(\.rawValue).joined(separator: ", "))
                }
                script.events.append(Line(number: number, event: .error(error)))
            case "wait":
                let value = try single("number of milliseconds")
                guard let ms = Int(value), ms >= 0 else { throw fail("'wait' needs a whole number of milliseconds, not '\(value)'") }
                script.events.append(Line(number: number, event: .wait(milliseconds: ms)))
            case "unplug", "cancel", "fallback":
                guard args.isEmpty else { throw fail("'\(verb)' takes no argument") }
                let event: FakeEvent = verb == "unplug" ? .unplug : verb == "cancel" ? .cancel : .fallback
                script.events.append(Line(number: number, event: event))
            default:
                throw fail("unknown command '\(verb)'; use scan, retry, error, unplug, wait, cancel, fallback or set")
            }
        }
        return script
    }
}

/// A script line that could not be parsed.
public struct FakeScriptError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the line.
    public let message: String
    /// The message.
    public var description: String { message }
}
