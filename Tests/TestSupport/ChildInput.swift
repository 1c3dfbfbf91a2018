import Foundation
import Glibc

extension FileHandle {
    /// Writes `data` to a child's standard input, and returns whether all of it went in.
    ///
    /// A child may exit before it reads its input (a usage error, a refused configuration), and a
    /// write to a pipe nobody reads raises SIGPIPE, whose default action ends the whole test
    /// process: every suite after it is lost ("exited with unexpected signal code 13", seen when
    /// a loaded machine let the child exit first). The test process cannot simply ignore SIGPIPE:
    /// Foundation's `Process` passes an ignored SIGPIPE on to the children it starts, and the
    /// programs under test must meet a closed pipe as they would in use. So the signal is blocked
    /// on this thread only while it writes (a write's SIGPIPE goes to the thread that wrote), and
    /// one left pending is taken before the mask is restored: an EPIPE here is expected, not
    /// reported (CTestProcess reports any other write's SIGPIPE).
    @discardableResult
    public func writeToChild(_ data: Data) -> Bool {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var none = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &none)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var written = 0
        return data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let result = Glibc.write(fileDescriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return true
        }
    }
}
