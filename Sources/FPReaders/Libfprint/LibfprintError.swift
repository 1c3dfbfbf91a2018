internal import CLibfprint

/// Turns libfprint's `GError`s into typed errors, comparing domains by quark
/// (never by name) and codes by value.
enum LibfprintError {
    /// What a failed libfprint call reported: a retry request or a real error.
    enum Failure: Error {
        case retry(RetryReason)
        case error(ReaderError)
    }

    /// Converts and frees the error.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> Failure {
        guard let error else { return .error(.general("libfprint failed without saying why")) }
        defer { g_error_free(error) }
        return convert(error)
    }

    /// Converts an error that libfprint still owns (callback arguments).
    static func convert(_ error: UnsafeMutablePointer<GError>) -> Failure {
        let domain = error.pointee.domain
        let code = error.pointee.code
        let message = error.pointee.message.map { String(cString: $0) } ?? "no message"
        if domain == fp_device_retry_quark() {
            return .retry(retryReason(code))
        }
        if domain == fp_device_error_quark() {
            return .error(deviceError(code, message))
        }
        if domain == fpb_io_error_quark() {
            switch code {
            case Int32(G_IO_ERROR_CANCELLED.rawValue): return .error(.cancelled)
            case Int32(G_IO_ERROR_TIMED_OUT.rawValue): return .error(.timedOut)
            case Int32(G_IO_ERROR_INVALID_DATA.rawValue): return .error(.invalidPrint(message))
            case Int32(G_IO_ERROR_PERMISSION_DENIED.rawValue): return .error(.permissionDenied(message))
            default: return .error(.general(message))
            }
        }
        if message.lowercased().contains("permission") || message.contains("LIBUSB_ERROR_ACCESS") {
            return .error(.permissionDenied(message))
        }
        return .error(.general(message))
    }

    /// Like ``take(_:)`` for operations where a retry request is itself an error.
    static func takeError(_ error: UnsafeMutablePointer<GError>?) -> ReaderError {
        switch take(error) {
        case .error(let readerError): readerError
        case .retry(let reason): .general("the reader asked for another scan: \(reason.hint)")
        }
    }

    /// A failed verify or identify: a retry request is an outcome, anything else an error.
    static func outcome(failure error: UnsafeMutablePointer<GError>?) throws -> MatchOutcome {
        switch take(error) {
        case .retry(let reason): return .retry(reason)
        case .error(let readerError): throw readerError
        }
    }

    private static func retryReason(_ code: Int32) -> RetryReason {
        switch code {
        case Int32(FP_DEVICE_RETRY_TOO_SHORT.rawValue): .tooShort
        case Int32(FP_DEVICE_RETRY_CENTER_FINGER.rawValue): .center
        case Int32(FP_DEVICE_RETRY_REMOVE_FINGER.rawValue): .remove
        default: .general
        }
    }

    private static func deviceError(_ code: Int32, _ message: String) -> ReaderError {
        switch code {
        case Int32(FP_DEVICE_ERROR_NOT_SUPPORTED.rawValue): .notSupported("this operation")
        case Int32(FP_DEVICE_ERROR_NOT_OPEN.rawValue): .notOpen
        case Int32(FP_DEVICE_ERROR_ALREADY_OPEN.rawValue): .alreadyOpen
        case Int32(FP_DEVICE_ERROR_BUSY.rawValue): .busy
        case Int32(FP_DEVICE_ERROR_PROTO.rawValue): .protocolError(message)
        case Int32(FP_DEVICE_ERROR_DATA_INVALID.rawValue): .dataInvalid(message)
        case Int32(FP_DEVICE_ERROR_DATA_NOT_FOUND.rawValue): .printNotFound
        case Int32(FP_DEVICE_ERROR_DATA_FULL.rawValue): .storageFull
        case Int32(FP_DEVICE_ERROR_DATA_DUPLICATE.rawValue): .duplicatePrint
        case Int32(FP_DEVICE_ERROR_REMOVED.rawValue): .removed
        case Int32(FP_DEVICE_ERROR_TOO_HOT.rawValue): .tooHot(usableInSeconds: nil)
        default: .general(message)
        }
    }
}
