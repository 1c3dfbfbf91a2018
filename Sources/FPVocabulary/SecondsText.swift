/// A number of seconds in words for a message: "1 second", "30 seconds", "0.5 seconds"
/// (never "0 seconds" for a wait that was half a second).
package enum SecondsText {
    package static func words(_ seconds: Double) -> String {
        let whole = seconds.rounded()
        if abs(seconds - whole) < 0.05 {
            let count = Int(whole)
            return "\(count) second\(count == 1 ? "" : "s")"
        }
        // One decimal is what a person reads; more would be noise.
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) seconds"
    }
}
