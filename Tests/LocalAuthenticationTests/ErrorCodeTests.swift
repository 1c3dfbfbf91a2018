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

    /// One table: `LAError.Code` is the engine's `AuthErrorCode` itself, so an engine code
    /// reaches the app with its number and name, and a code added to the engine is an
    /// `LAError.Code` at once. Apple's codes come first, in Apple's order, then fpbridge's.
    @Test func oneTableOfCodes() {
        #expect(LAError.Code.self == AuthErrorCode.self)
        let apple = [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -1004]
        let all = LAError.Code.allCases.map(\.rawValue)
        #expect(Array(all.prefix(apple.count)) == apple)
        #expect(all.dropFirst(apple.count).allSatisfy { $0 <= -2001 })
        #expect(Set(all).count == all.count)
        for code in LAError.Code.allCases {
            #expect(LAError.Code(rawValue: code.rawValue) == code)
            #expect("\(code)" == code.name)
            #expect(LAError(code).errorCode == code.rawValue)
        }
        // Apple's names for what fpbridge never produces are cases like any other.
        let never: [LAError.Code] = [.companionNotAvailable, .biometryNotPaired, .invalidDimensions]
        #expect(never.map(\.rawValue) == [-11, -12, -14])
        #expect(never.map { "\($0)" } == ["companionNotAvailable", "biometryNotPaired", "invalidDimensions"])
    }

    /// An app's `switch` over the code, as written for iOS: Apple's cases, then `default`.
    @Test func switchOverTheCodeAsOnIOS() {
        func describe(_ code: LAError.Code) -> String {
            switch code {
            case .authenticationFailed, .userCancel, .userFallback, .systemCancel, .appCancel, .invalidContext: "ended"
            case .passcodeNotSet, .biometryNotAvailable, .biometryNotEnrolled, .biometryNotPaired,
                 .companionNotAvailable, .invalidDimensions, .notInteractive, .biometryDisconnected: "unavailable"
            case .biometryLockout: "locked"
            default: "fpbridge"
            }
        }
        #expect(describe(.biometryLockout) == "locked")
        #expect(describe(LAError.Code(rawValue: -12)!) == "unavailable")
        #expect(describe(.readerTooHot) == "fpbridge")
        let error: any Error = LAError(.invalidDimensions)
        switch error {
        case LAError.invalidDimensions: break
        default: Issue.record("catch LAError.invalidDimensions did not match")
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
