import FPAuthentication
import FPLocalAPI

extension WireFinding {
    /// The finding as the API and `--json` write it.
    package init(_ finding: StateRepair.Finding) {
        self.init(kind: finding.kind.rawValue, path: finding.path, problem: finding.problem, action: finding.action)
    }
}

extension RepairResult {
    /// Finds, and repairs when `yes`, in `directory`: the one way both the CLI and the service repair.
    package static func run(_ directory: StateDirectory, yes: Bool) throws(AuthError) -> RepairResult {
        let repair = StateRepair(stateDirectory: directory)
        let findings = try repair.findings()
        let moved = yes && !findings.isEmpty ? try repair.repair(findings) : []
        return RepairResult(stateDirectory: directory.path, findings: findings.map(WireFinding.init),
                            repaired: yes && !findings.isEmpty, movedTo: moved)
    }
}
