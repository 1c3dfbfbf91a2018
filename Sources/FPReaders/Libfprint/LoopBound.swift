/// A C pointer that may cross tasks but is only ever dereferenced on the GLib
/// loop thread (see ``GLibMainLoop``). libfprint has no internal locks, so this
/// discipline, not the type system, is what keeps it safe.
struct LoopBound<Pointer>: @unchecked Sendable {
    let raw: Pointer
}
