/// One operating point of a detection-error-tradeoff table.
public struct DETRow: Sendable, Equatable, Codable {
    public var sensitivity: Double?
    public var threshold: Double
    public var falseRejectionRate: Double
    public var falseAcceptsPerHour: Double
    public var misses: Int
    public var falseAccepts: Int
    /// Share of confusable files with at least one detection.
    public var confusableAcceptRate: Double
}
