import FoundationEssentials

/// The JSON coders of the local API: dates as whole milliseconds since 1970, keys sorted.
package enum WireCoding {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Whole milliseconds: the state files keep milliseconds, and a date read back from
        // their text is off by a fraction of a microsecond (1795409344376.9998).
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    /// One line of JSON (no newline inside: JSONEncoder escapes them).
    package static func line(_ value: some Encodable) -> Data {
        var data = (try? encoder().encode(value)) ?? Data(#"{"type":"result","ok":false}"#.utf8)
        data.append(0x0A)
        return data
    }
}

extension JSONValue {
    /// Any encodable value as a JSON value (dates as milliseconds).
    package init(encoding value: some Encodable) throws {
        self = try WireCoding.decoder().decode(JSONValue.self, from: WireCoding.encoder().encode(value))
    }

    /// The value as another decodable type.
    package func decode<T: Decodable>(as type: T.Type) throws -> T {
        try WireCoding.decoder().decode(T.self, from: WireCoding.encoder().encode(self))
    }
}
