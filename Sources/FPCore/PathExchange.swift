internal import CProcessSecurity

/// Swapping what two paths name in one step (renameat2 with RENAME_EXCHANGE), for a repair
/// that must never leave nothing in a state folder's place.
///
/// Here, not in FPStore: the C shim behind it includes system headers that also define
/// `struct stat`, and a store file compiled beside an importer of the shim could find `stat`
/// owned by the shim's module, which MemberImportVisibility then refuses unless that file
/// imports it too. The store imports Glibc only.
package enum PathExchange {
    /// Swaps `first` and `second` (either a file, a directory or a link). 0 on success,
    /// else -1 with errno set.
    package static func swap(_ first: String, _ second: String) -> Int32 {
        fpb_exchange(first, second)
    }
}
