extension Duration {
    /// The duration in seconds, for arithmetic with sample rates, for printing, and for the
    /// JSON a person or a client reads (`Duration` inside, seconds at the edge).
    public var inSeconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
