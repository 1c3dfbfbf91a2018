import FoundationEssentials
import FPVocabulary

/// Reads a request body as exactly one type: malformed JSON, a wrong type, a
/// missing or an unknown field is refused with a message naming it, so that a
/// client's typo never passes as a default.
package enum StrictJSON {
    private static let knownFields = Locked<[ObjectIdentifier: Set<String>]>([:])

    /// Why a body was refused, in words for the error message.
    package struct Refusal: Error, Sendable {
        package let message: String
    }

    /// `data` decoded as `T`, or the refusal naming what did not fit.
    package static func decode<T: Codable>(_ type: T.Type, from data: Data, decoder: JSONDecoder = JSONDecoder()) throws(Refusal) -> T {
        let given: [String: JSONValue]
        do { given = try decoder.decode([String: JSONValue].self, from: data) } catch {
            throw Refusal(message: "the request body is not a JSON object")
        }
        let value: T
        do { value = try decoder.decode(T.self, from: data) } catch let error as DecodingError {
            throw Refusal(message: "the request body does not fit: \(describe(error))")
        } catch {
            throw Refusal(message: "the request body does not fit: \(error)")
        }
        // Fields the type knows are those it writes back; anything else given (not null) is
        // unknown. What a type wrote once is remembered, so a body of known fields only is
        // never encoded again.
        let type = ObjectIdentifier(T.self)
        let remembered = knownFields.withLock { $0[type] } ?? []
        var unknown = given.filter { !remembered.contains($0.key) && $0.value != .null }.keys.sorted()
        if !unknown.isEmpty {
            let written = (try? decoder.decode(JSONValue.self, from: JSONEncoder().encode(value))).flatMap { json -> Set<String>? in
                if case .object(let fields) = json { return Set(fields.keys) }
                return nil
            } ?? []
            knownFields.withLock { $0[type, default: []].formUnion(written) }
            unknown = unknown.filter { !written.contains($0) }
        }
        if !unknown.isEmpty { throw Refusal(message: "unknown field(s): \(unknown.joined(separator: ", "))") }
        return value
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map(\.stringValue).joined(separator: ".")
            return text.isEmpty ? "the body" : "'\(text)'"
        }
        switch error {
        case .keyNotFound(let key, _): return "missing field '\(key.stringValue)'"
        case .typeMismatch(_, let context): return "\(path(context)) has the wrong type"
        case .valueNotFound(_, let context): return "\(path(context)) is null"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
