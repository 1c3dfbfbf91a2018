/// One look at many users' state (an identification reads every user's prints and
/// counter): the state directory and its `prints/` and `counters/` folders are checked
/// (``DirectorySafety``) once when the pass begins, not again for every user. Every folder
/// below them is still checked where it is read.
///
/// A top folder that fails its check is not marked: what reads through it then takes the
/// ordinary path, which checks it again and reports it as it always has.
///
/// Make one for one request and drop it: it says what was true when it was made. Nothing
/// is decided on a read made within it alone; a match is decided on the counter read again
/// under the state lock, every check made.
package struct StatePass: Sendable {
    /// The state directory checked; a pass vouches for no other.
    private let path: String
    private let printsSafe: Bool
    private let countersSafe: Bool

    /// Checks the state directory (throws as every read of it does) and its top folders.
    package init(_ directory: StateDirectory) throws(StoreError) {
        try directory.checkRoot()
        path = directory.path
        printsSafe = Self.passes(directory.file("prints"))
        countersSafe = Self.passes(directory.file("counters"))
    }

    /// Whether `folder` passes ``DirectorySafety`` now. A missing folder passes, as it does
    /// on the ordinary path (nothing can be read through it). A folder that fails, or cannot
    /// be looked at, does not: its readers then check it themselves and throw its error.
    private static func passes(_ folder: String) -> Bool {
        do {
            try DirectorySafety.check(folder)
            return true
        } catch {
            return false
        }
    }

    /// Whether `directory` and its `prints/` passed the checks of this pass.
    func printsChecked(in directory: StateDirectory) -> Bool { printsSafe && directory.path == path }

    /// Whether `directory` and its `counters/` passed the checks of this pass.
    func countersChecked(in directory: StateDirectory) -> Bool { countersSafe && directory.path == path }
}
