/// Frame-level VAD counts against a truth, and the figures made from them.
public struct VADScore: Sendable, Equatable, Codable {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0
    public var trueNegatives = 0

    public init() {}

    /// Adds one file's decisions; the shorter of the two sequences sets the length compared.
    public mutating func add(predicted: [Bool], truth: [Bool]) {
        for (guess, actual) in zip(predicted, truth) {
            switch (guess, actual) {
            case (true, true): truePositives += 1
            case (true, false): falsePositives += 1
            case (false, true): falseNegatives += 1
            case (false, false): trueNegatives += 1
            }
        }
    }

    public var precision: Double { Self.ratio(truePositives, truePositives + falsePositives) }
    public var recall: Double { Self.ratio(truePositives, truePositives + falseNegatives) }
    public var f1: Double {
        let (p, r) = (precision, recall)
        return p + r > 0 ? 2 * p * r / (p + r) : 0
    }
    /// Share of non-speech frames called speech.
    public var falsePositiveRate: Double { Self.ratio(falsePositives, falsePositives + trueNegatives) }

    static func ratio(_ numerator: Int, _ denominator: Int) -> Double {
        denominator > 0 ? Double(numerator) / Double(denominator) : 0
    }
}
