/// The service's version, in status and in key attestations.
enum ServiceVersion {
    static let current = "fpbridged 0.1.0"
}
