import FPStore
import FoundationEssentials

/// How a repair replaces a folder it could not trust (not a directory, another user's, open to
/// others): moved aside, and the safest state left for everything it held, by the same rules
/// as for one damaged file of that kind. Each step leaves a state that fails closed if the
/// next one fails: keys are invalidated before the prints they need go, prints go before the
/// passcodes they need, and a counters folder is swapped for a locked one in one step.
struct FolderLoss {
    let stateDirectory: StateDirectory

    /// The order repairs run in: per-user folders, then whole areas, passcodes after prints
    /// and keys, counters last (their locked replacements are for the users still there).
    static func order(_ finding: StateRepair.Finding) -> Int {
        switch finding.area {
        case .prints?, .keys?: finding.user == nil ? 1 : 0
        case .service?, nil: 1
        case .passcodes?: 2
        case .counters?: 3
        }
    }

    /// Repairs `finding`'s folder, which is still in place; call inside the state lock.
    /// Returns where what was moved aside now is.
    func repair(_ finding: StateRepair.Finding) throws -> [String] {
        let quarantine = Quarantine(directory: stateDirectory)
        let prints = PrintStore(directory: stateDirectory)
        let keys = KeyStore(directory: stateDirectory)
        switch finding.area {
        case .counters?:
            // Every count goes with the folder: each user and reader with state left is locked
            // out in the folder that replaces it, and the owner's passcode (a reader's: that of
            // a user enrolled before) unlocks it; never "no failures", not even for a moment.
            let records = try prints.everyRecord()
            let locked = LockoutRules.lockedByRepair(prints: records)
            var scopes: [CounterScope: AttemptCounter] = [:]
            for user in Set(try PasscodeStore(directory: stateDirectory).userNames()).union(records.map(\.user)) {
                scopes[.user(user)] = locked
            }
            for reader in Set(records.map(\.reader)) { scopes[.reader(driver: reader.driver, deviceID: reader.deviceID)] = locked }
            let counters = CounterStore(directory: stateDirectory)
            return [try quarantine.replace(finding.path) { temporary throws(StoreError) in
                try counters.writeFolder(scopes, at: temporary)
            }]
        case .passcodes?:
            // No one keeps a passcode: no key may be released and no print may stay, and the
            // prints go (whole, to quarantine) before the passcodes do.
            for user in try keys.userNames() { try KeyRules.passcodeRemoved(user: user, directory: stateDirectory) }
            var moved: [String] = []
            let printsFolder = stateDirectory.file("prints")
            if FileManager.default.fileExists(atPath: printsFolder) { moved.append(try quarantine.move(printsFolder)) }
            moved.append(try quarantine.move(finding.path))
            return moved
        case .prints?:
            // Keys bound to the prints are invalidated before the prints go.
            let users = try finding.user.map { [$0] } ?? keys.userNames()
            for user in users { try KeyRules.enrollmentChanged(user: user, directory: stateDirectory) }
            return [try quarantine.move(finding.path)]
        case .keys?, .service?, nil:
            return [try quarantine.move(finding.path)]
        }
    }
}
