import FPVocabulary
import FoundationEssentials
import Glibc

/// Asks for passcodes: one line of standard input each with `--passcode-stdin`,
/// otherwise a no-echo prompt on the controlling terminal (see ``SecretInput``).
/// The engine bounds the wait and cancels the prompt when it ends.
package struct TerminalPrompt: AuthPrompt {
    package let fromStandardInput: Bool
    /// Watches the terminal during scans; it gives the terminal up before a passcode is read.
    package var fallbackKey: FallbackKey? = nil
    /// A bound of its own, beyond the engine's: a day.
    static let limit = Duration.seconds(86_400)

    package init(fromStandardInput: Bool, fallbackKey: FallbackKey? = nil) {
        self.fromStandardInput = fromStandardInput
        self.fallbackKey = fallbackKey
    }

    package func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? {
        fallbackKey?.stop()
        let source: SecretInput.Source = fromStandardInput
            ? .standardInput
            : .terminal(prompt: "\(reason.isEmpty ? "Passcode" : reason) (\(attemptsLeftBeforeLockout) attempts left): ")
        if case .entered(let passcode) = await SecretInput.read(source, timeout: Self.limit) { return passcode }
        return nil
    }
}
