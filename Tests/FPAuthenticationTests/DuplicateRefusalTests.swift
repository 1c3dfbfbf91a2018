@testable import FPAuthentication
import FPReaders
import FPStore
import Foundation
import Testing

/// Issue 37 §3: a finger refused because it is enrolled already names the print that holds it
/// only to whom may know who is enrolled: the user's own finger always, another user's only
/// where the environment allows it (in process; fpbridged's admin and kiosk callers).
@Suite struct DuplicateRefusalTests {
    let reader = ReaderIdentity(driver: "virtual_image", deviceID: "0")

    func environment(mayName: Bool) -> AuthEnvironment {
        var environment = AuthEnvironment(user: "alice", reader: nil, stateDirectory: StateDirectory(path: "/nonexistent-state"),
                                          configuration: AuthConfiguration())
        environment.mayNameOtherUsersPrints = mayName
        return environment
    }

    func holder(_ user: String, _ finger: Finger) -> PrintRecord {
        PrintRecord(user: user, finger: finger, reader: reader, enrolledAt: Date(), storedOnDevice: false, print: PrintData(bytes: [1, 2, 3]))
    }

    @Test func anotherUsersPrintIsNamedOnlyWhereThatMayBeKnown() {
        let hidden = DuplicateFinger.refusal(.leftIndex, heldBy: holder("bob", .rightThumb), environment(mayName: false))
        #expect(hidden.code == .alreadyEnrolled)
        #expect(hidden.message.contains("as another user's finger") && !hidden.message.contains("bob"), "\(hidden.message)")
        let named = DuplicateFinger.refusal(.leftIndex, heldBy: holder("bob", .rightThumb), environment(mayName: true))
        #expect(named.message.contains("as bob's right-thumb"), "\(named.message)")
    }

    @Test func theUsersOwnFingerIsAlwaysNamed() {
        let own = DuplicateFinger.refusal(.leftIndex, heldBy: holder("alice", .rightIndex), environment(mayName: false))
        #expect(own.message.contains("already enrolled on \(reader) as alice's right-index"), "\(own.message)")
        #expect(own.message.contains("alice's left-index (nothing was saved)"), "\(own.message)")
    }
}
