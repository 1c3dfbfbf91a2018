/// fpbridge's version, one place for every front end and for key attestations.
public enum FPBridgeVersion {
    /// The version string (`fpbridge --version`, `serviceVersion` in attestations).
    public static let current = "0.1.0"
}
