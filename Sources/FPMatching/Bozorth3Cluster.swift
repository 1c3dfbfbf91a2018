/// A cluster: a set of at least three correspondences that agree on one rotation,
/// found by one pass of the scoring (docs/bozorth3.md §6.4).
struct Bozorth3Cluster {
    /// Correspondences in the cluster.
    var size: Int32
    /// Its size plus the sizes of the later clusters found compatible with it.
    var total: Int32
    /// The mean rotation of its correspondences.
    var rotation: Int32
    /// Centroids of the probe's and the stored sample's start minutiae (integer means).
    var probeX: Int32, probeY: Int32, storedX: Int32, storedY: Int32
    /// The probe minutiae and the stored minutiae it uses.
    var probePoints: Bozorth3PointSet
    var storedPoints: Bozorth3PointSet
    // Which clusters it is compatible with is kept beside it (Bozorth3Scorer.compatibility),
    // so that a cluster is plain data and copying one counts no references.
}
