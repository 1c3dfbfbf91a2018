/// Who hears, during a match, that a finger is now on the sensor and matching has begun: the
/// engine, which tells the front end to stop saying "place your finger" (a large gallery can
/// take seconds). A task-local, so that a reader reports it without a parameter in every
/// reader's API; each reader calls ``report()`` once per scan, when it sees the finger.
package enum FingerPresence {
    @TaskLocal package static var onFinger: (@Sendable () -> Void)?
}
