@testable import FPService
import FPAuthentication
import FPLocalAPI
import Testing

/// Issue 40 §4: an enrollment and a kiosk's armed identification on one reader. Before the
/// claims, the enrollment waited for its turn and the administrator's first touch went to the
/// identification as a stranger's; then the enrollment ran beside the kiosk.
@Suite struct KioskReaderClaimsTests {
    let reader = ReaderIdentity(driver: "virtual_image", deviceID: "0")
    let other = ReaderIdentity(driver: "virtual_device", deviceID: "0")

    func operation() -> FPService.Operation { FPService.Operation(owner: 65534, prompt: RemotePrompt(send: { _ in })) }

    @Test func anEnrollmentElsewhereIsRefusedWhileAnIdentificationIsArmedOnItsReaderOnly() throws {
        let claims = KioskReaderClaims()
        let identification = operation()
        try claims.arm(identification, on: reader)
        #expect(claims.isArmed(reader) && !claims.isArmed(other))

        #expect(throws: KioskReaderClaims.held(reader)) { try claims.beginEnrollment(operation(), on: reader, atKiosk: false) }
        #expect(KioskReaderClaims.held(reader).cause == .kioskHoldsReader)
        #expect(!identification.isCancelled, "a refused enrollment leaves the kiosk's identification armed")
        #expect(claims.enrollment(on: reader) == nil)
        // Another reader is free.
        let elsewhere = operation()
        try claims.beginEnrollment(elsewhere, on: other, atKiosk: false)
        claims.endEnrollment(elsewhere, on: other)

        // A cancelled identification (not yet disarmed) takes no scan.
        let cancelled = operation()
        try claims.arm(cancelled, on: other)
        cancelled.cancel(.app)
        #expect(!claims.isArmed(other), "a cancelled identification takes no scan")

        // Once the identification ended, an enrollment may claim the reader; from then on no
        // identification arms on it (a kiosk waking from a rest would take the next scan), and
        // one may again once the enrollment ended.
        claims.disarm(identification)
        #expect(!claims.isArmed(reader))
        let enrollment = operation()
        try claims.beginEnrollment(enrollment, on: reader, atKiosk: false)
        #expect(throws: KioskReaderClaims.enrollingElsewhere) { try claims.arm(operation(), on: reader) }
        #expect(claims.enrollment(on: reader) == nil, "an enrollment made elsewhere shows no progress on the kiosk's page")
        claims.endEnrollment(enrollment, on: reader)
        try claims.arm(operation(), on: reader)
    }

    @Test func anEnrollmentAtTheKioskEndsTheArmedIdentificationHoldsOffNewOnesAndShowsItsProgress() throws {
        let claims = KioskReaderClaims()
        let identification = operation()
        try claims.arm(identification, on: reader)

        let enrollment = operation()
        try claims.beginEnrollment(enrollment, on: reader, atKiosk: true)
        #expect(identification.isCancelled, "the armed identification ends (its scan counts nothing)")
        #expect(identification.outcome(CancellationError()) == KioskReaderClaims.enrolling, "its client hears why")
        #expect(claims.enrollment(on: reader) == ReaderReport.Enrolling(stage: 0, stages: nil))

        // No identification is armed until the enrollment ends, on that reader only.
        #expect(throws: KioskReaderClaims.enrolling) { try claims.arm(operation(), on: reader) }
        try claims.arm(operation(), on: other)

        claims.progress(on: reader, stage: 2, of: 5)
        #expect(claims.enrollment(on: reader) == ReaderReport.Enrolling(stage: 2, stages: 5))
        claims.progress(on: other, stage: 1, of: 5)
        #expect(claims.enrollment(on: other) == nil, "progress only for an enrollment at the kiosk that runs")

        // A second enrollment at the kiosk on the same reader (two administrators): the first
        // one's end leaves identification held off until the second ends too.
        let second = operation()
        try claims.beginEnrollment(second, on: reader, atKiosk: true)
        claims.endEnrollment(enrollment, on: reader)
        #expect(throws: KioskReaderClaims.enrolling) { try claims.arm(operation(), on: reader) }
        claims.endEnrollment(second, on: reader)
        #expect(claims.enrollment(on: reader) == nil)
        try claims.arm(operation(), on: reader)
        #expect(claims.isArmed(reader))
    }
}
