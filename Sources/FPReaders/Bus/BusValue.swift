/// A value carried on D-Bus, typed as GVariant types it: what a method receives and answers,
/// what a signal carries and what a property reads. Only the types a bus face of this project
/// needs; anything else that arrives is ``other(_:)`` with its type string.
package indirect enum BusValue: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case variant(BusValue)
    /// An array whose elements have the type `element` (needed for an empty one).
    case array(element: String, [BusValue])
    /// A dictionary `a{KV}`, in the order given.
    case dictionary(key: String, value: String, [BusEntry])
    case tuple([BusValue])
    /// A value of a type not modelled here, by its type string.
    case other(String)

    /// The D-Bus type signature of the value.
    package var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .bool: "b"
        case .int32: "i"
        case .uint32: "u"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .tuple(let items): "(" + items.map(\.signature).joined() + ")"
        case .other(let type): type
        }
    }

    /// A string array (`as`).
    package static func strings(_ items: [String]) -> BusValue { .array(element: "s", items.map(BusValue.string)) }

    /// An object path array (`ao`).
    package static func objectPaths(_ items: [String]) -> BusValue { .array(element: "o", items.map(BusValue.objectPath)) }

    /// A property bag (`a{sv}`).
    package static func properties(_ items: [(String, BusValue)]) -> BusValue {
        .dictionary(key: "s", value: "v", items.map { BusEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// The text of a string or object path; nil for anything else.
    package var text: String? {
        switch self {
        case .string(let text), .objectPath(let text): text
        default: nil
        }
    }
}

/// One entry of a ``BusValue/dictionary(key:value:_:)``.
package struct BusEntry: Sendable, Equatable {
    package var key: BusValue
    package var value: BusValue

    package init(key: BusValue, value: BusValue) {
        self.key = key
        self.value = value
    }
}

/// A D-Bus error: its name (`org.example.Error.Something`) and a message for people.
package struct BusError: Error, Sendable, Equatable, CustomStringConvertible {
    package var name: String
    package var message: String

    package init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    package var description: String { "\(name): \(message)" }
}
