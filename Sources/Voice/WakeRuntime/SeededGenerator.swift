import Foundation

/// SplitMix64: a small deterministic generator, so a phrase always trains to the same model.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Standard normal sample (Box–Muller).
    package mutating func gaussian() -> Float {
        let u = Float.random(in: Float.ulpOfOne..<1, using: &self)
        let v = Float.random(in: 0..<1, using: &self)
        return (-2 * logf(u)).squareRoot() * cosf(2 * .pi * v)
    }
}
