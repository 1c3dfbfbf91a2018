import Foundation
import FPVocabulary

/// The error domain of every ``LAError``, Apple's own, so that code comparing
/// an `NSError`'s domain works unchanged.
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// The longest ``LAContext/touchIDAuthenticationAllowableReuseDuration``: 300 seconds.
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = EvaluationAdmission.maximumReuseDuration
