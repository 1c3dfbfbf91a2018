import FPVocabulary

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

    package init(kind: String, path: String, problem: String, action: String) {
        self.kind = kind
        self.path = path
        self.problem = problem
        self.action = action
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
}
