import FPAuthentication
import FPLocalAPI

extension AvailabilityResult {
    /// What the engine's availability check found, for `user`.
    package init(user: String, _ availability: Availability) {
        self.init(user: user, biometryType: availability.biometryType, scanType: availability.scanType,
                  error: availability.error.map { WireError($0) })
    }
}
