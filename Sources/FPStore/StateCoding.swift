import FoundationEssentials

/// JSON as every state file uses it: sorted keys, ISO 8601 dates with
/// milliseconds, and decoding failures reported as damage to the named file.
///
/// Milliseconds matter: whether a user was enrolled before a lockout began,
/// and whether a 0.5 s lockout is over, must not round to the same second.
enum StateCoding {
    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Self.format))
        }
        // Encoding our own plain value types cannot fail.
        return try! encoder.encode(value)
    }

    private static let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws(StoreError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            // Files written before milliseconds were kept have whole seconds.
            guard let date = (try? Date(text, strategy: Self.format)) ?? (try? Date(text, strategy: .iso8601)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
            }
            return date
        }
        do {
            return try decoder.decode(type, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw .damaged(path: path, reason: "not valid JSON (\(context.debugDescription))")
        } catch let DecodingError.keyNotFound(key, _) {
            throw .damaged(path: path, reason: "the field '\(key.stringValue)' is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw .damaged(path: path, reason: "the field '\(field)' has the wrong type")
        } catch {
            throw .damaged(path: path, reason: "\(error)")
        }
    }
}
