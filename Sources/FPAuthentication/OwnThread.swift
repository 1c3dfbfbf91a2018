import FPCore
import FoundationEssentials

/// Runs slow synchronous work (scrypt takes a tenth of a second and more) on a
/// thread of its own, so that it never holds one of the few threads Swift
/// concurrency runs every task on, nor the caller's.
enum OwnThread {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws(AuthError) -> T) async throws(AuthError) -> T {
        let result: Result<T, AuthError> = await withCheckedContinuation { continuation in
            DetachedThread.start(name: "fpbridge-kdf") {
                do throws(AuthError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
