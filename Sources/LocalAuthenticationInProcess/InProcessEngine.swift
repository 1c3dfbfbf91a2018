import FPAuthentication
import FPTerminal
import Foundation
import LocalAuthentication

extension FPBridgeEngine {
    /// The engine in this process: the reader, the rules and the state files of the settings, without
    /// `fpbridged`.
    /// - Parameters:
    ///   - readerInstance: A reader object to use instead of the settings' reader: a `FakeReader`
    ///     shared by several contexts, say, whose script then runs on across them. Settings with one
    ///     run in this process even when they name a service.
    ///   - configuration: The limits and timeouts; nil reads `config.json` in the state directory
    ///     when a context first needs them.
    /// - Returns: The engine, for `FPBridgeSettings.engine`.
    public static func inProcess(readerInstance: (any FingerprintReader)? = nil,
                                 configuration: AuthConfiguration? = nil) -> FPBridgeEngine {
        FPBridgeEngine(readerInstance: readerInstance, configuration: configuration) { settings in
            EngineEvaluator(settings: settings, readerInstance: readerInstance, configuration: configuration)
        }
    }
}

extension FPBridgeSettings {
    /// The in-process engine's reader object (`FPBridgeEngine.inProcess(readerInstance:configuration:)`);
    /// setting it sets an in-process `engine`, keeping the configuration.
    public var readerInstance: (any FingerprintReader)? {
        get { engine?.readerInstance as? any FingerprintReader }
        set { engine = .inProcess(readerInstance: newValue, configuration: configuration) }
    }

    /// The in-process engine's limits and timeouts (`FPBridgeEngine.inProcess(readerInstance:configuration:)`);
    /// setting them sets an in-process `engine`, keeping the reader object.
    public var configuration: AuthConfiguration? {
        get { engine?.configuration as? AuthConfiguration }
        set { engine = .inProcess(readerInstance: readerInstance, configuration: newValue) }
    }
}
