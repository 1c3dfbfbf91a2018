import FPMatching

/// What libfprint can put in an NBIS print, so that a stored print holding anything else is
/// refused as damaged when it is loaded, before a comparison spends time on it.
///
/// `fp_print_deserialize` checks only the number of minutiae per sample (docs/bozorth3.md
/// §2.1), but bozorth3's work is not bounded (§6.7): a crafted stored print with angles no
/// scan gives (every pair of edges then passes the angle test) or with thousands of samples
/// held the reader for seconds to hours per identification (issue 36, finding 4). The
/// bounds below are facts of libfprint 1.94.5 (and still of its later sources), read in its
/// sources: no print that libfprint made fails them.
enum NBISLimits {
    /// Most minutiae in one sample: `MAX_BOZORTH_MINUTIAE`, which `fp_print_deserialize`
    /// itself enforces (§2.1).
    static let maximumMinutiae = Bozorth3PairTable.maximumMinutiae

    /// Most samples in one print. An image reader adds one sample per enroll stage
    /// (`fpi_print_add_print` in `fpi-image-device.c`, nowhere else), and it enrolls
    /// `IMG_ENROLL_STAGES` = 5 stages unless its driver class says otherwise; the only image
    /// driver that does is elanspi, with 7 (`dev_class->nr_enroll_stages = 7`), and no image
    /// driver changes it at run time (only match-on-chip drivers call
    /// `fpi_device_set_nr_enroll_stages`, and their prints are not NBIS). A scan holds one.
    static let maximumSamples = 7

    /// The stored angles: `lfs2nist_minutia_XYT` gives `[0, 359]` and `minutiae_to_xyt` in
    /// `fpi-print.c` turns those above 180 into negative ones (§2.2).
    static let angles: ClosedRange<Int32> = -179...180

    /// Coordinates: pixels of the scanned image, `x` as detected and `y` counted up from the
    /// bottom (§2.2), so never negative. No reader's image is near 16,384 pixels on a side
    /// (virtual_image refuses a side over 5,000; the longest swipe assemblies are a few
    /// thousand rows), and below it bozorth3's 32-bit squared lengths cannot wrap
    /// (2 × 16,383² < 2³¹), which is what crafted coordinates aim at (§9).
    static let coordinates: ClosedRange<Int32> = 0...16_383

    /// Why a sample's columns cannot come from libfprint, nil when they can. `x`, `y` and
    /// `theta` are the sample's three columns, already known to be of equal length.
    static func problem(x: [Int32], y: [Int32], theta: [Int32]) -> String? {
        if x.count > maximumMinutiae {
            return "\(x.count) minutiae in a sample (at most \(maximumMinutiae))"
        }
        if let bad = theta.first(where: { !angles.contains($0) }) {
            return "a minutia's angle is \(bad) degrees (libfprint stores \(angles.lowerBound)...\(angles.upperBound))"
        }
        if let bad = (x + y).first(where: { !coordinates.contains($0) }) {
            return "a minutia's coordinate is \(bad) pixels (at most \(coordinates.upperBound), never negative)"
        }
        return nil
    }
}
