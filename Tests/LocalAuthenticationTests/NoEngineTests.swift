import Foundation
import LocalAuthentication
import Testing

/// Without LocalAuthenticationInProcess's engine, settings that choose no fpbridged fail with
/// `notSupported`, naming the product and the service, rather than crashing or running elsewhere.
@Suite struct NoEngineTests {
    func settings() throws -> FPBridgeSettings {
        var settings = FPBridgeSettings(reader: .fake(scriptPath: nil), stateDirectory: StateDirectory(path: "/nonexistent/fpbridge"),
                                        user: "alice", prompt: ListedPasscodes([]), terminalInterface: false)
        settings.service = nil
        #expect(settings.engine == nil)
        return settings
    }

    @Test func canEvaluateNamesTheProduct() throws {
        let context = LAContext(fpbridge: try settings())
        var error: NSError?
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(error?.code == LAError.Code.notSupported.rawValue, "\(String(describing: error))")
        #expect(error?.localizedDescription.contains("LocalAuthenticationInProcess") == true, "\(String(describing: error))")
        #expect(error?.localizedDescription.contains("fpbridged") == true, "\(String(describing: error))")
        #expect(context.biometryType == .none)
    }

    @Test func evaluateNamesTheProduct() async throws {
        let context = LAContext(fpbridge: try settings())
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
            Issue.record("an evaluation without an engine or a service succeeded")
        } catch let error as LAError {
            #expect(error.code == .notSupported, "\(error)")
            #expect(error.localizedDescription.contains("LocalAuthenticationInProcess"), "\(error)")
        }
    }
}
