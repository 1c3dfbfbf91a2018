import Foundation

/// Waits until `condition` holds, asking it again every `interval`, for at most `seconds`; false
/// when the time ran out. For what a test can only see from outside (another process, the bus,
/// a file a script makes): the condition is what the test waits for, the bound a hang guard and
/// never a measurement.
public func eventually(within seconds: TimeInterval, every interval: Duration = .milliseconds(20),
                       _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while try await !condition() {
        guard Date() < deadline else { return false }
        try await Task.sleep(for: interval)
    }
    return true
}
