/// What lies behind an error where one ``AuthErrorCode`` groups several, for a program (and
/// the CLI's hints) to act on without reading the words, which are for people and may change.
/// It travels with the error through fpbridged (`cause` in the API's error object).
public enum AuthErrorCause: String, Sendable, Hashable, Codable, CaseIterable {
    /// A file fpbridge keeps (a counter, a print, a key, a passcode record) cannot be read as
    /// what it should be; `fpbridge repair` lists and moves aside what is damaged.
    case damagedState = "damaged-state"
    /// The state directory belongs to someone else or is open to others, so nothing in it is trusted.
    case unsafeStateDirectory = "unsafe-state-directory"
    /// No fingerprint reader was found (none plugged in, or none this user may open).
    case noReader = "no-reader"
    /// A key of that label exists already for the user.
    case keyLabelTaken = "key-label-taken"
    /// The sensor's own storage already holds this finger (perhaps from other software).
    case sensorHoldsFinger = "sensor-holds-finger"
    /// An identification (a kiosk's) is armed on the reader: an enrollment started elsewhere
    /// would give it its first scan. The administrator enrolls at the kiosk (`--at-kiosk`) or
    /// stops the kiosk first.
    case kioskHoldsReader = "kiosk-holds-reader"
    /// An administrator is enrolling a finger at the kiosk's reader: identification waits until
    /// that enrollment ends, and `GET /v1/reader` shows its progress meanwhile.
    case kioskEnrolling = "kiosk-enrolling"
    /// An identification among everyone on a reader that holds more prints than
    /// `identificationOpenGalleryLimit`: at that size the 1:N threshold costs the right person
    /// too many touches, so the person names themselves first (the kiosk's badge,
    /// `fpbridge identify --claimed USER`) and only their prints are compared.
    case claimNeeded = "claim-needed"
    /// The print was deleted, but the reader did not delete its own copy of it (it refused, or
    /// had lost it already): the copy matches nothing without its record. `fpbridge selftest
    /// --steps clear` wipes the sensor's storage.
    case sensorCopyKept = "sensor-copy-kept"
    /// The disk that holds the state directory is full (or the user's quota used up): nothing
    /// can be recorded, so nothing succeeds, until space is freed.
    case diskFull = "disk-full"
    /// The state directory, or a file in it, may not be written by this user (or its filesystem
    /// is read-only): nothing can be recorded until it is given back or remounted.
    case stateNotWritable = "state-not-writable"
    /// A client of fpbridged could not use its answer (not what this client reads, cut short,
    /// an error code it does not know): a client and service of different versions, or a
    /// service that stopped mid-answer. Nothing is known of the operation's outcome.
    case serviceAnswer = "service-answer"
}
