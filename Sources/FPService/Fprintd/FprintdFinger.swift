import FPAuthentication

/// fprintd's finger names (`right-index-finger`), fpbridge's (`right-index`), and `any`.
enum FprintdFinger {
    /// The name fprintd's clients use for a finger: thumbs keep theirs, the others gain `-finger`.
    static func name(_ finger: Finger) -> String {
        finger.rawValue.hasSuffix("thumb") ? finger.rawValue : finger.rawValue + "-finger"
    }

    /// The finger a client named; nil for anything that is not one of the ten names.
    static func finger(_ name: String) -> Finger? {
        Finger.allCases.first { self.name($0) == name }
    }

    /// What `VerifyStart` was asked for: one finger, or any of the user's (`"any"`, and the
    /// empty string that older clients send).
    static func selection(_ name: String) -> Set<Finger>?? {
        if name == "any" || name.isEmpty { return .some(nil) }
        return finger(name).map { .some([$0]) } ?? .none
    }
}
