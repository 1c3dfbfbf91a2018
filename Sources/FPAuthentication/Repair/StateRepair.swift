import FPStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Finds and repairs damaged state files: the administrator's way out of the
/// fail-closed state that damage leaves (biometry locked out, passcode refused).
///
/// Each damaged file is moved to `damaged/` in the state directory, never
/// deleted, and replaced by the safest state: a damaged counter by one that is
/// locked out (the owner's passcode then unlocks it); a damaged passcode by
/// none, together with that user's prints, which cannot stay without one
/// (the user sets a passcode and enrolls again); a damaged print by nothing; a
/// damaged or out-of-range `config.json` by the defaults; a lock file that is not a
/// regular file by a new one on next use.
public struct StateRepair: Sendable {
    /// One damaged file and what the repair does about it.
    public struct Finding: Sendable, Hashable {
        /// Which kind of state file is damaged.
        public enum Kind: String, Sendable {
            /// An attempt counter.
            case counter
            /// A user's authentication times (iOS's rules on when the password is needed again).
            case times
            /// A passcode record.
            case passcode
            /// An enrolled print.
            case print
            /// `config.json`.
            case config
            /// A key released by a match.
            case key
            /// The service's master key or device identity (`service/`).
            case serviceKey
            /// A folder (`counters/`, `passcodes/`, `prints/USER`, …) that is not a directory,
            /// belongs to another user or is open to others: nothing in it can be trusted.
            case folder
            /// The state directory's lock file (`.lock`) is not a regular file: no count can
            /// be recorded, so every check is refused until it is moved aside.
            case lock
        }
        /// What kind of file it is.
        public let kind: Kind
        /// The damaged file.
        public let path: String
        /// What is wrong with it.
        public let problem: String
        /// What repairing does with it.
        public var action: String {
            switch kind {
            case .counter: "replace it with a locked-out counter (the passcode unlocks it)"
            case .times: "replace it with a remote lock (the password or passcode lifts it)"
            case .passcode: "remove it and that user's prints (set a passcode and enroll again)"
            case .print: "remove it (enroll the finger again)"
            case .config: "move it aside (the defaults apply until a new config.json is written)"
            case .lock: "move it aside (a new lock file is made on next use)"
            case .key: "remove it (the key is lost: make a new one and register it again wherever it was used)"
            case .serviceKey: "move it aside (a new one is made on next use; keys sealed under an old master key are lost, "
                + "and servers that know this device by its old identity key must bind it again)"
            case .folder:
                switch area {
                case .counters?: "move it aside and lock out every user and reader (each user's passcode unlocks)"
                case .passcodes?: "move it aside, and with it every passcode: every print goes and every key is invalidated "
                    + "(set a passcode and enroll again)"
                case .prints?: "move it aside with the prints in it (enroll again); keys bound to those prints are invalidated"
                case .keys?: "move it aside with the keys in it (make new ones and register them again)"
                case .service?, nil: "move it aside (a new master key and identity are made on next use; sealed keys are lost)"
                }
            }
        }
        /// The user a passcode, print or folder finding belongs to.
        let user: String?
        /// What a folder finding held.
        var area: StateFolders.Area? = nil
    }

    /// The state directory looked at.
    public let stateDirectory: StateDirectory

    /// Repairs for the state in `stateDirectory`.
    public init(stateDirectory: StateDirectory) {
        self.stateDirectory = stateDirectory
    }

    /// Every damaged file in the state directory.
    /// - Throws: `stateDamaged` when a directory is unsafe to use at all.
    public func findings() throws(AuthError) -> [Finding] {
        do { return try scan() } catch { throw AuthError(error) }
    }

    private func scan() throws(StoreError) -> [Finding] {
        // Folders first: nothing below an unusable folder is read (others may have planted it).
        let folders = try StateFolders(directory: stateDirectory).problems()
        var findings = folders.map { Finding(kind: .folder, path: $0.path, problem: $0.reason, user: $0.user, area: $0.area) }
        let lock = StateLock(directory: stateDirectory)
        if let problem = lock.problem() { findings.append(Finding(kind: .lock, path: lock.path, problem: problem, user: nil)) }
        // A folder is listed only when neither it nor a folder above it is unusable; a user's
        // files are read only when no folder of theirs, above or below, is.
        func usable(_ path: String) -> Bool { !folders.contains { path == $0.path || path.hasPrefix($0.path + "/") } }
        func whole(_ path: String) -> Bool { usable(path) && !folders.contains { $0.path.hasPrefix(path + "/") } }
        do {
            _ = try AuthConfiguration.load(from: stateDirectory)
        } catch {
            findings.append(Finding(kind: .config, path: ConfigFile.path(in: stateDirectory), problem: error.message, user: nil))
        }
        let counters = CounterStore(directory: stateDirectory)
        for path in usable(stateDirectory.file("counters")) ? try counters.filesOnDisk() : [] {
            do { _ = try counters.load(path: path) } catch {
                findings.append(Finding(kind: .counter, path: path, problem: error.description, user: nil))
            }
        }
        for path in usable(stateDirectory.file("counters")) ? try counters.timesFilesOnDisk() : [] {
            do { _ = try counters.loadTimes(path: path) } catch {
                findings.append(Finding(kind: .times, path: path, problem: error.description, user: nil))
            }
        }
        let passcodes = PasscodeStore(directory: stateDirectory)
        for user in usable(stateDirectory.file("passcodes")) ? try passcodes.userNames() : [] {
            do { _ = try passcodes.record(user: user) } catch {
                findings.append(Finding(kind: .passcode, path: try passcodes.path(user: user), problem: error.description, user: user))
            }
        }
        let prints = PrintStore(directory: stateDirectory)
        for user in usable(stateDirectory.file("prints")) ? try prints.userNames() : [] where whole(stateDirectory.file("prints", user)) {
            // A folder that cannot be read is an error here, never "no damaged prints".
            for case .damaged(let error) in try prints.checkedEntries(user: user, reader: nil) {
                if case .damaged(let path, _) = error {
                    findings.append(Finding(kind: .print, path: path, problem: error.description, user: user))
                }
            }
        }
        let keys = KeyStore(directory: stateDirectory)
        for user in usable(stateDirectory.file("keys")) ? try keys.userNames() : [] where whole(stateDirectory.file("keys", user)) {
            for path in try keys.files(user: user) {
                do { _ = try keys.record(path: path) } catch {
                    findings.append(Finding(kind: .key, path: path, problem: error.description, user: user))
                }
            }
        }
        let service = ServiceKeys(directory: stateDirectory)
        let checks: [(String, () throws(StoreError) -> Void)] = [
            (service.masterKeyPath, { () throws(StoreError) in _ = try service.masterKey(create: false) }),
            (service.identityPath, { () throws(StoreError) in _ = try service.identityKey() }),
        ]
        for (path, check) in checks where usable(path) && FileManager.default.fileExists(atPath: path) {
            do { try check() } catch {
                findings.append(Finding(kind: .serviceKey, path: path, problem: error.description, user: nil))
            }
        }
        return findings
    }

    /// Whether anything (a dangling link too) is at `path`.
    private static func present(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Repairs the findings; returns where each damaged file was moved.
    public func repair(_ findings: [Finding]) throws(AuthError) -> [String] {
        let counters = CounterStore(directory: stateDirectory)
        let prints = PrintStore(directory: stateDirectory)
        let quarantine = Quarantine(directory: stateDirectory)
        var moved: [String] = []
        do {
            // An unusable lock cannot be taken, so it is moved aside first, without it: while
            // it is there no process can take the lock either, so none is writing.
            let lock = StateLock(directory: stateDirectory)
            if findings.contains(where: { $0.kind == .lock }), lock.problem() != nil {
                moved.append(try quarantine.move(lock.path))
            }
            try lock.withLock {
                // Folders before files (a file in a moved folder is gone with it), in FolderLoss's order.
                let folders = findings.filter { $0.kind == .folder }.sorted { FolderLoss.order($0) < FolderLoss.order($1) }
                for finding in folders where Self.present(finding.path) {
                    moved += try FolderLoss(stateDirectory: stateDirectory).repair(finding)
                }
                for finding in findings where finding.kind != .folder && finding.kind != .lock && Self.present(finding.path) {
                    if finding.kind == .counter {
                        // Swapped for a locked counter in one step: never a moment with none.
                        let locked = LockoutRules.lockedByRepair(prints: try prints.everyRecord())
                        moved.append(try quarantine.replace(finding.path) { temporary throws(StoreError) in
                            try counters.write(locked, toPath: temporary)
                        })
                        continue
                    }
                    if finding.kind == .times {
                        // The safest record is a lock: the finger waits for the password, whatever the settings.
                        var locked = AuthenticationTimes()
                        locked.lockedAt = Date()
                        moved.append(try quarantine.replace(finding.path) { temporary throws(StoreError) in
                            try counters.write(locked, toPath: temporary)
                        })
                        continue
                    }
                    moved.append(try quarantine.move(finding.path))
                    switch finding.kind {
                    case .counter, .times:
                        continue
                    case .passcode:
                        guard let user = finding.user else { continue }
                        for entry in try prints.checkedEntries(user: user, reader: nil) {
                            switch entry {
                            case .record(let record):
                                try prints.delete(user: record.user, reader: record.reader, finger: record.finger)
                            case .damaged(.damaged(let path, _)):
                                moved.append(try quarantine.move(path))
                            case .damaged:
                                continue
                            }
                        }
                    case .print, .config, .key, .serviceKey, .folder, .lock:
                        continue
                    }
                }
            }
        } catch {
            throw AuthError(error)
        }
        return moved
    }
}
