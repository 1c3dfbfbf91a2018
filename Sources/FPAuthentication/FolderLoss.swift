import FPStore
import FoundationEssentials

/// What a repair does once a folder it could not trust is moved aside: leaves the safest state
/// for everything the folder held, by the same rules as for one damaged file of that kind.
struct FolderLoss {
    let stateDirectory: StateDirectory

    /// Settles the loss of `finding`'s folder (already moved aside); call inside the state lock.
    func settle(_ finding: StateRepair.Finding) throws {
        let prints = PrintStore(directory: stateDirectory)
        let keys = KeyStore(directory: stateDirectory)
        switch finding.area {
        case .counters?:
            // Every count is gone: each user and reader with state left is locked out, and the
            // owner's passcode (a reader: an enrolled user's) unlocks it, never "no failures".
            let counters = CounterStore(directory: stateDirectory)
            let locked = LockoutRules.lockedByRepair()
            var users = Set(try PasscodeStore(directory: stateDirectory).userNames())
            var readers = Set<ReaderIdentity>()
            for user in try prints.userNames() {
                users.insert(user)
                for record in try prints.checkedEntries(user: user, reader: nil).compactMap(\.record) { readers.insert(record.reader) }
            }
            for user in users { try counters.write(locked, for: .user(user)) }
            for reader in readers { try counters.write(locked, for: .reader(driver: reader.driver, deviceID: reader.deviceID)) }
        case .passcodes?:
            // No one has a passcode any more: no print may stay, no key may be released.
            for user in try prints.userNames() { _ = try prints.removeAll(user: user) }
            for user in try keys.userNames() { try KeyRules.passcodeRemoved(user: user, directory: stateDirectory) }
        case .prints?:
            let users = try finding.user.map { [$0] } ?? keys.userNames()
            for user in users { try KeyRules.enrollmentChanged(user: user, directory: stateDirectory) }
        case .keys?, .service?, nil:
            break
        }
    }
}
