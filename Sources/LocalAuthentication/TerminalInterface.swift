import FPAuthentication
import FPTerminal
import Foundation

/// What stands in for Apple's system prompt at a terminal: progress on
/// standard error, Enter as the fallback button, Ctrl-C as Cancel, and a
/// no-echo passcode prompt. Without a terminal, only the settings' prompt.
struct TerminalInterface {
    let prompt: any AuthPrompt
    private let key: FallbackKey?
    private let interrupt: CtrlC?

    init(settings: FPBridgeSettings, engine: AuthenticationContext, reason: String) {
        self.init(settings: settings, reason: reason, interactionNotAllowed: engine.interactionNotAllowed,
                  fallback: { engine.chooseFallback() }, cancel: { engine.cancel(.user) })
    }

    /// The same with the buttons given as actions (an evaluation in `fpbridged`).
    init(settings: FPBridgeSettings, reason: String, interactionNotAllowed: Bool,
         fallback: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
        let enabled = Self.enabled(settings)
        // Apple's dialog shows the app's reason first; so does the terminal.
        if enabled, !interactionNotAllowed { FileHandle.standardError.write(Data((reason + "\n").utf8)) }
        key = enabled ? FallbackKey.start { fallback() } : nil
        interrupt = enabled ? CtrlC { cancel() } : nil
        if let custom = settings.prompt {
            prompt = custom
        } else if enabled || isatty(STDIN_FILENO) == 1 {
            prompt = TerminalPrompt(fromStandardInput: false, fallbackKey: key)
        } else {
            prompt = NoPasscodePrompt()
        }
    }

    func stop() {
        key?.stop()
        interrupt?.release()
    }

    static func enabled(_ settings: FPBridgeSettings) -> Bool {
        settings.terminalInterface ?? (isatty(STDERR_FILENO) == 1)
    }

    /// Prints the engine's events on standard error until the engine is invalidated.
    static func startPrinting(_ engine: AuthenticationContext) {
        _ = EventPrinter.start(for: engine.events, fallbackKey: isatty(STDIN_FILENO) == 1) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}

/// Reader failures that mean "no reader now" rather than "the reader is broken".
enum ReaderUnavailability {
    static func covers(_ error: any Error) -> Bool {
        switch error as? ReaderError {
        case .noReader, .permissionDenied, .removed: true
        default: false
        }
    }
}
