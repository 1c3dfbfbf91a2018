/// An enrollment's first scan matched a print it was to be refused against
/// (``PrintMatching/enroll(_:refusing:)``): the enrollment stopped there, nothing was enrolled.
package struct DuplicateScan: Error, Sendable, Hashable {
    /// The matching print's index in the gallery given.
    package let galleryIndex: Int

    package init(galleryIndex: Int) {
        self.galleryIndex = galleryIndex
    }
}
