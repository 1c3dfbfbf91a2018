import FPVocabulary
import Foundation

/// Why an evaluation failed, as on Apple platforms: a `code` from
/// ``LAError/Code``, the error domain ``LAErrorDomain`` and a description for people.
///
/// Catch it as iOS code does:
///
/// ```swift
/// do {
///     try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Log in")
/// } catch LAError.userFallback {
///     // show the app's own password screen
/// } catch let error as LAError where error.code == .biometryLockout {
///     // ask for the passcode
/// }
/// ```
public struct LAError: Error, Sendable, Hashable, CustomNSError, LocalizedError, CustomStringConvertible {
    /// What went wrong.
    public let code: Code
    /// The description for people; it names the file, reader or user concerned.
    public let message: String
    /// fpbridge: seconds after which trying again may succeed (a passcode lockout, a hot reader).
    public let retryAfter: TimeInterval?

    /// An error with the given code; the description comes from
    /// `userInfo[NSLocalizedDescriptionKey]` when it is a string.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message = userInfo[NSLocalizedDescriptionKey] as? String ?? "\(code)"
        self.retryAfter = nil
    }

    /// The same error an `NSError` of the ``LAErrorDomain`` describes; nil for another domain or an unknown code.
    public init?(_ error: NSError) {
        guard error.domain == LAErrorDomain, let code = Code(rawValue: error.code) else { return nil }
        self.init(code, userInfo: error.userInfo)
    }

    init(_ error: AuthError) {
        code = error.code  // the same table: nothing to translate, nothing to lose
        message = error.message
        retryAfter = error.retryAfter
    }

    /// ``LAErrorDomain``.
    public static var errorDomain: String { LAErrorDomain }
    /// The code's raw value, as an `NSError`'s `code`.
    public var errorCode: Int { code.rawValue }
    /// The description under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The same as ``errorUserInfo``, under Apple's name.
    public var userInfo: [String: Any] { errorUserInfo }
    /// The description for people.
    public var errorDescription: String? { message }
    /// The description for people.
    public var description: String { message }

    /// This error as an `NSError` in the ``LAErrorDomain``, as `canEvaluatePolicy(_:error:)` hands it out.
    public var nsError: NSError {
        NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: errorUserInfo)
    }
}

/// Matches an error against a code: what makes `catch LAError.userCancel` and
/// `case LAError.biometryLockout:` in a `switch` over an error work.
public func ~= (pattern: LAError.Code, error: any Error) -> Bool {
    if let error = error as? LAError { return error.code == pattern }
    let bridged = error as NSError
    return bridged.domain == LAErrorDomain && bridged.code == pattern.rawValue
}
