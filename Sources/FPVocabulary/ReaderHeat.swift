#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How warm an image reader is, as libfprint's thermal model counts it: a number from 0 to 1
/// that rises towards 1 while the reader scans (time constant ``heatingSeconds``) and falls
/// towards 0 while it rests (``coolingSeconds``). At ``hotThreshold`` libfprint cancels the
/// running scan with "too hot" and refuses new ones until the number has fallen below
/// ``usableThreshold``. libfprint reports only cold, warm or hot; the number itself is
/// estimated by whoever follows the reader's activity (the service does), so that a kiosk can
/// plan its waits: scan while there is headroom, rest before the cut-off, never be cut off.
///
/// The constants are facts of libfprint 1.94 (its default model for every driver without
/// the always-on feature: image readers, the virtual ones included).
public struct ReaderHeat: Sendable, Hashable, Codable {
    /// Seconds for the heat to cover 63 % of its way to 1 while scanning.
    public static let heatingSeconds: Double = 180
    /// Seconds for the heat to cover 63 % of its way to 0 while resting.
    public static let coolingSeconds: Double = 540
    /// Where a new reader starts, and below which it reports cold: 1 / (1 + e).
    public static let coldThreshold: Double = 1 / (1 + exp(1))
    /// At or above this the reader is hot: every scan is stopped.
    public static let hotThreshold: Double = 1 - coldThreshold
    /// A hot reader scans again once its heat has fallen below this.
    public static let usableThreshold: Double = 0.5

    /// The heat, from 0 to 1.
    public var ratio: Double
    /// Whether libfprint holds the reader as hot: once hot it stays so until it has cooled
    /// below ``usableThreshold``, although the ratio is then under ``hotThreshold``.
    public var hot: Bool

    /// A reader at `ratio`, hot or not (`hot` is forced when the ratio is at the hot threshold).
    public init(ratio: Double = ReaderHeat.coldThreshold, hot: Bool = false) {
        self.ratio = min(1, max(0, ratio))
        self.hot = hot || self.ratio >= Self.hotThreshold
    }

    /// A guess from libfprint's word alone, for a reader whose activity nobody followed: the
    /// warmest heat of a cold reader, the middle of warm, the threshold of hot.
    public init(reported temperature: ReaderTemperature) {
        switch temperature {
        case .cold: self.init(ratio: Self.coldThreshold.nextDown)
        case .warm: self.init(ratio: Self.usableThreshold)
        case .hot: self.init(ratio: Self.hotThreshold, hot: true)
        }
    }

    /// The cold, warm or hot that libfprint reports for this heat.
    public var temperature: ReaderTemperature {
        if hot { return .hot }
        return ratio < Self.coldThreshold ? .cold : .warm
    }

    /// The heat after `seconds` of scanning (`active`) or of rest, as libfprint steps it.
    public func after(active: Bool, seconds: Double) -> ReaderHeat {
        let elapsed = max(0, seconds)
        let next: Double
        if active {
            let alpha = exp(-elapsed / Self.heatingSeconds)
            next = alpha * ratio + 1 - alpha
        } else {
            next = ratio * exp(-elapsed / Self.coolingSeconds)
        }
        // Hot holds until the heat is under the usable threshold again.
        return ReaderHeat(ratio: next, hot: hot && next >= Self.usableThreshold)
    }

    /// Seconds of scanning left before libfprint stops the reader as hot: 0 while it is hot.
    public var scanSecondsLeft: Double {
        if hot { return 0 }
        // (1 - r) shrinks by e^(-t / heating) while scanning; hot at 1 - r = coldThreshold.
        return max(0, Self.heatingSeconds * log((1 - ratio) / (1 - Self.hotThreshold)))
    }

    /// Seconds of rest before a hot reader scans again: 0 unless it is hot.
    public var usableInSeconds: Double {
        guard hot else { return 0 }
        return max(0, Self.coolingSeconds * log(ratio / Self.usableThreshold))
    }

    /// Seconds of rest after which `seconds` of scanning are available (counting the wait of
    /// a hot reader): 0 when they are available now. Asking for more than a cold reader has
    /// is asking for the rest that brings it down to cold.
    public func idleSeconds(untilScanSecondsLeft seconds: Double) -> Double {
        let wanted = min(max(0, seconds), ReaderHeat(ratio: Self.coldThreshold).scanSecondsLeft)
        // The heat at which `wanted` seconds of scanning remain.
        let target = 1 - (1 - Self.hotThreshold) * exp(wanted / Self.heatingSeconds)
        let limit = hot ? min(target, Self.usableThreshold) : target
        guard ratio > limit, limit > 0 else { return 0 }
        return Self.coolingSeconds * log(ratio / limit)
    }
}
