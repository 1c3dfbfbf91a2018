/// An enrollment met its finger enrolled already (``PrintMatching/enroll(_:refusing:deletingSensorOrphans:)``):
/// the enrollment stopped there, nothing was enrolled.
package struct DuplicateScan: Error, Sendable, Hashable {
    /// The matching print's index in the gallery given; nil when the sensor holds the finger
    /// under a print of its own that is in no print of the gallery and was not deleted.
    package let galleryIndex: Int?

    package init(galleryIndex: Int?) {
        self.galleryIndex = galleryIndex
    }
}
