import FPTerminal
import Foundation
import FPVocabulary

/// What stands in for Apple's system prompt at a terminal: progress on
/// standard error, Enter as the fallback button, Ctrl-C as Cancel, and a
/// no-echo passcode prompt. Without a terminal, only the settings' prompt.
package struct TerminalInterface {
    package let prompt: any AuthPrompt
    private let key: FallbackKey?
    private let interrupt: CtrlC?

    /// The interface of one evaluation, with the buttons given as actions.
    package init(settings: FPBridgeSettings, reason: String, interactionNotAllowed: Bool,
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

    package func stop() {
        key?.stop()
        interrupt?.release()
    }

    package static func enabled(_ settings: FPBridgeSettings) -> Bool {
        settings.terminalInterface ?? (isatty(STDERR_FILENO) == 1)
    }
}
