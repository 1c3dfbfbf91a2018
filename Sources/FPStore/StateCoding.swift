import Foundation

/// JSON as every state file uses it: sorted keys, ISO 8601 dates, and
/// decoding failures reported as damage to the named file.
enum StateCoding {
    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        // Encoding our own plain value types cannot fail.
        return try! encoder.encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws(StoreError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
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
