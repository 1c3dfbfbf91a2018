import FPAuthentication

/// `POST /v1/repair`: lists damaged state and, with `yes`, repairs it (root and the admin group only).
package struct RepairRequest: TargetedRequest {
    package var yes: Bool?
    package var user: String?
    package var reader: String?
    package var stateDirectory: String?

    package init(yes: Bool) { self.yes = yes }
}

/// One damaged file and what repairing does to it.
package struct WireFinding: Codable, Sendable, Hashable {
    package var kind: String
    package var path: String
    package var problem: String
    package var action: String

    package init(_ finding: StateRepair.Finding) {
        kind = finding.kind.rawValue
        path = finding.path
        problem = finding.problem
        action = finding.action
    }
}

/// What `repair` found, and where the damaged files went when it repaired them.
package struct RepairResult: Codable, Sendable, Hashable {
    package var stateDirectory: String
    package var findings: [WireFinding]
    package var repaired: Bool
    package var movedTo: [String]

    package init(stateDirectory: String, findings: [WireFinding], repaired: Bool, movedTo: [String]) {
        self.stateDirectory = stateDirectory
        self.findings = findings
        self.repaired = repaired
        self.movedTo = movedTo
    }

    /// Finds, and repairs when `yes`, in `directory`: the one way both the CLI and the service repair.
    package static func run(_ directory: StateDirectory, yes: Bool) throws(AuthError) -> RepairResult {
        let repair = StateRepair(stateDirectory: directory)
        let findings = try repair.findings()
        let moved = yes && !findings.isEmpty ? try repair.repair(findings) : []
        return RepairResult(stateDirectory: directory.path, findings: findings.map(WireFinding.init),
                            repaired: yes && !findings.isEmpty, movedTo: moved)
    }
}
