import NIOCore
import NIOHTTP1
import SystemPackage

/// Errors that say the service's connection went away, as opposed to an answer that came
/// and was wrong: the first is a service not there (or stopped mid-answer), the second a fault.
enum ConnectionLoss {
    static func matches(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError: [Errno.connectionReset, .brokenPipe, .socketNotConnected].contains(Errno(rawValue: error.errnoCode))
        case let error as ChannelError:
            [.eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed].contains(error)
        // The codec's word for a connection closed in the middle of a body.
        case let error as HTTPParserError: error == .invalidEOFState
        default: false
        }
    }

    /// The reason in words: errno's text for a system call's error.
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return Errno(rawValue: error.errnoCode).description }
        return "\(error)"
    }
}
