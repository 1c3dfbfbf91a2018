import UnixSignals

/// SIGTERM and SIGINT, trapped as the service starts: a stop sent while it is still opening
/// its readers and its bus is a graceful stop like any other, never the default action that
/// ended fpbridged with 143 before `ServiceGroup.run` had installed its own handlers (issue 53:
/// 1 stop of 720 under load). The group is told of each (``FPBridgeService``); told before it
/// runs, it remembers and stops as soon as it has started.
package struct StopSignals: Sendable {
    let signals: UnixSignalsSequence

    /// Traps both signals now; they no longer end the process by themselves.
    package static func trap() async -> StopSignals {
        StopSignals(signals: await UnixSignalsSequence(trapping: .sigterm, .sigint))
    }
}
