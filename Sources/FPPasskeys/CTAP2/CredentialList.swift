/// The credential ids of an `excludeList` or `allowList` (PublicKeyCredentialDescriptors,
/// WebAuthn §5.8.3): entries of type `public-key` kept, others passed over as WebAuthn wants.
enum CredentialList {
    /// The longest list taken, announced as `maxCredentialCountInList`; hosts split longer ones.
    static let maximumCount = 64

    /// The ids of the `public-key` descriptors in `elements`, the list named `field`.
    /// - Throws: `CTAP2_ERR_LIMIT_EXCEEDED` past ``maximumCount``, the type errors of
    ///   ``CTAP2Arguments`` for a malformed descriptor.
    static func ids(_ elements: [CBORValue], _ field: String) throws(CTAP2Error) -> [[UInt8]] {
        guard elements.count <= maximumCount else {
            throw CTAP2Error(.limitExceeded, "\(field) has \(elements.count) entries, more than \(maximumCount)")
        }
        var ids: [[UInt8]] = []
        for element in elements {
            let descriptor = try CTAP2Arguments(element, of: "\(field) entry")
            let type = try descriptor.text(.text("type"), "type", required: true)
            let id = try descriptor.bytes(.text("id"), "id", required: true)
            if type == "public-key", let id { ids.append(id) }
        }
        return ids
    }
}
