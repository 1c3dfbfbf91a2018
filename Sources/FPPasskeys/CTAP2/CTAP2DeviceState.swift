/// What one authenticator device keeps across requests, from its power-up to its end (for
/// fpbridged's device, its making for one occupant of the seat to the seat changing hands):
/// the PIN/UV state, the bio enrollment in progress and the assertions getNextAssertion has
/// still to give, each on one clock.
package final class CTAP2DeviceState: Sendable {
    package let pin: PinUvSession
    package let enrollments: BioEnrollmentSession
    package let assertions: PendingAssertions

    /// A device's state at power-up, timed by `clock` (tests advance it).
    package init<C: Clock<Duration>>(clock: C = ContinuousClock()) {
        pin = PinUvSession(clock: clock)
        enrollments = BioEnrollmentSession(clock: clock)
        assertions = PendingAssertions(clock: clock)
    }

    /// The device's end: an enrollment in progress is cancelled, so that no later touch
    /// enrolls a finger for someone no longer there.
    package func close() {
        enrollments.close()
        assertions.forget()
    }
}
