/// The parameters of one CTAP2 request: a CBOR map keyed by small integers (or, inside, by
/// text), read with the status CTAP 2.1 gives for each fault: `CTAP2_ERR_INVALID_CBOR` for bytes
/// that are not canonical CBOR, `CTAP2_ERR_CBOR_UNEXPECTED_TYPE` for a value of the wrong type,
/// `CTAP2_ERR_MISSING_PARAMETER` for a required one absent. Unknown keys are ignored, as the
/// specification wants (newer hosts send more).
package struct CTAP2Arguments: Sendable {
    private let entries: [CBORValue: CBORValue]
    /// What the map is, for the reasons (`makeCredential`, `rp`, …).
    private let name: String

    /// The parameters encoded in `bytes` (after the command byte).
    package init(_ bytes: ArraySlice<UInt8>, of name: String) throws(CTAP2Error) {
        let value: CBORValue
        do {
            value = try CBORDecoder.decode(Array(bytes))
        } catch {
            throw CTAP2Error(.invalidCBOR, "\(name)'s parameters are not canonical CBOR: \(error)")
        }
        try self.init(value, of: name)
    }

    /// The parameters of a map already decoded (a parameter that is itself a map).
    package init(_ value: CBORValue, of name: String) throws(CTAP2Error) {
        guard case .map(let entries) = value else {
            throw CTAP2Error(.cborUnexpectedType, "\(name) is not a CBOR map")
        }
        self.entries = entries
        self.name = name
    }

    /// The value under `key`, nil when absent.
    package subscript(key: CBORValue) -> CBORValue? { entries[key] }

    /// A byte string; nil when absent and not `required`.
    package func bytes(_ key: CBORValue, _ field: String, required: Bool = false) throws(CTAP2Error) -> [UInt8]? {
        guard let value = try value(key, field, required: required) else { return nil }
        guard case .bytes(let bytes) = value else { throw unexpected(field, "a byte string") }
        return bytes
    }

    /// A text string; nil when absent and not `required`.
    package func text(_ key: CBORValue, _ field: String, required: Bool = false) throws(CTAP2Error) -> String? {
        guard let value = try value(key, field, required: required) else { return nil }
        guard case .text(let text) = value else { throw unexpected(field, "a text string") }
        return text
    }

    /// A map, as arguments of its own; nil when absent and not `required`.
    package func map(_ key: CBORValue, _ field: String, required: Bool = false) throws(CTAP2Error) -> CTAP2Arguments? {
        guard let value = try value(key, field, required: required) else { return nil }
        return try CTAP2Arguments(value, of: "\(name).\(field)")
    }

    /// An array; nil when absent and not `required`.
    package func array(_ key: CBORValue, _ field: String, required: Bool = false) throws(CTAP2Error) -> [CBORValue]? {
        guard let value = try value(key, field, required: required) else { return nil }
        guard case .array(let elements) = value else { throw unexpected(field, "an array") }
        return elements
    }

    /// A boolean; nil when absent.
    package func bool(_ key: CBORValue, _ field: String) throws(CTAP2Error) -> Bool? {
        guard let value = try value(key, field, required: false) else { return nil }
        guard case .bool(let flag) = value else { throw unexpected(field, "a boolean") }
        return flag
    }

    /// An integer; nil when absent and not `required`.
    package func int(_ key: CBORValue, _ field: String, required: Bool = false) throws(CTAP2Error) -> Int64? {
        guard let value = try value(key, field, required: required) else { return nil }
        guard let number = value.intValue else { throw unexpected(field, "an integer") }
        return number
    }

    private func value(_ key: CBORValue, _ field: String, required: Bool) throws(CTAP2Error) -> CBORValue? {
        guard let value = entries[key] else {
            if required { throw CTAP2Error(.missingParameter, "\(name) has no \(field)") }
            return nil
        }
        return value
    }

    private func unexpected(_ field: String, _ type: String) -> CTAP2Error {
        CTAP2Error(.cborUnexpectedType, "\(name).\(field) is not \(type)")
    }
}
