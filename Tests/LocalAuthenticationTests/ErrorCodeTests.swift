import Foundation
import LocalAuthentication
import Testing

/// Apple's numbers and names, and fpbridge's additions beside them.
@Suite struct ErrorCodeTests {
    @Test func applesRawValuesAndDomain() {
        let apple: [(LAError.Code, Int)] = [
            (.authenticationFailed, -1), (.userCancel, -2), (.userFallback, -3), (.systemCancel, -4),
            (.passcodeNotSet, -5), (.biometryNotAvailable, -6), (.biometryNotEnrolled, -7), (.biometryLockout, -8),
            (.appCancel, -9), (.invalidContext, -10), (.companionNotAvailable, -11), (.biometryNotPaired, -12),
            (.biometryDisconnected, -13), (.invalidDimensions, -14), (.notInteractive, -1004),
        ]
        for (code, value) in apple { #expect(code.rawValue == value, "\(code)") }
        #expect(LAErrorDomain == "com.apple.LocalAuthentication")
        #expect(LAError.errorDomain == LAErrorDomain)
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometrics.rawValue == 1)
        #expect(LAPolicy.deviceOwnerAuthentication.rawValue == 2)
        #expect(LABiometryType.allCases.map(\.rawValue) == [0, 1, 2, 4])
        #expect(LATouchIDAuthenticationMaximumAllowableReuseDuration == 300)
    }

    /// Every code the engine can produce arrives with the same number, so nothing is lost in between.
    @Test func everyEngineCodeHasTheSameNumberHere() {
        for code in AuthErrorCode.allCases {
            #expect(LAError.Code(rawValue: code.rawValue) != nil, "\(code) has no LAError.Code")
            #expect("\(LAError.Code(rawValue: code.rawValue)!)" == code.name)
        }
    }

    @Test func errorsBridgeToNSErrorAndBack() {
        let error = LAError(.biometryLockout, userInfo: [NSLocalizedDescriptionKey: "locked"])
        let bridged = error as NSError
        #expect(bridged.domain == LAErrorDomain && bridged.code == -8)
        #expect(bridged.localizedDescription == "locked")
        #expect(error.localizedDescription == "locked")
        #expect(LAError(bridged) == error)
        #expect(LAError(NSError(domain: "other", code: -8)) == nil)
        #expect(LAError.biometryLockout ~= bridged)
        #expect(!(LAError.biometryLockout ~= NSError(domain: "other", code: -8)))
        switch error as any Error {
        case LAError.authenticationFailed: Issue.record("matched the wrong code")
        case LAError.biometryLockout: break
        default: Issue.record("did not match")
        }
    }

    /// The seeds' old names: compiled in a deprecated context, as old code is.
    @available(*, deprecated)
    @Test func deprecatedTouchIDNamesAreTheBiometryCodes() {
        #expect(LAError.touchIDLockout == .biometryLockout)
        #expect(LAError.touchIDNotAvailable == .biometryNotAvailable)
        #expect(LAError.touchIDNotEnrolled == .biometryNotEnrolled)
        #expect(LAError.Code.touchIDLockout.rawValue == -8)
        #expect(LAError.Code.watchNotAvailable == .companionNotAvailable)
        #expect(LABiometryType.LABiometryNone == .none)
    }
}
