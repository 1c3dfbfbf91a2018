extension Duration {
    /// The duration as seconds with a fraction: what timeouts, waits and timings are
    /// reported and compared in across the project.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
