import FPVocabulary

/// The origin every assertion must name: given with `--origin`, or the address the
/// server is listening on once it is known (port 0 picks one).
final class Origin: Sendable {
    private let text: Locked<String>

    init(_ text: String) { self.text = Locked(text) }

    var value: String { text.withLock { $0 } }

    func set(_ value: String) { text.withLock { $0 = value } }
}
