internal import CLibfprint

/// Owns one reference to a GObject (or a GPtrArray) and drops it on the loop
/// thread when the last Swift reference goes, wherever that happens.
@GLibLoop
final class GObjectRef {
    enum Kind { case object, pointerArray }

    let pointer: UnsafeMutableRawPointer
    private let kind: Kind

    /// Takes over a reference the caller owns.
    init(taking pointer: UnsafeMutableRawPointer, kind: Kind = .object) {
        self.pointer = pointer
        self.kind = kind
    }

    /// Adds a reference of its own to a borrowed object.
    convenience init(retaining pointer: UnsafeMutableRawPointer) {
        g_object_ref(pointer)
        self.init(taking: pointer)
    }

    isolated deinit {
        switch kind {
        case .object: g_object_unref(pointer)
        case .pointerArray: g_ptr_array_unref(pointer.assumingMemoryBound(to: GPtrArray.self))
        }
    }
}
