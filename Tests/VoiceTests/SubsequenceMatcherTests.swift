import Foundation
import TestKit
import Testing
@testable import Voice

@Suite("Subsequence DTW matcher", .oneAtATime)
struct SubsequenceMatcherTests {
    /// A unit-length 40-band frame from a seed (deterministic).
    private static func frame(_ seed: Int) -> [Float] {
        let raw = (0..<40).map { band in Float(sin(Double(seed * 41 + band) * 0.73)) }
        let norm = raw.map { $0 * $0 }.reduce(0, +).squareRoot()
        return raw.map { $0 / norm }
    }

    /// The matcher as written row by row (the definition), to hold the SIMD version to it.
    private struct Reference {
        let rows: [[Float]]
        var cost1: [Float], cost2: [Float], length1: [Float], length2: [Float], start1: [Int], start2: [Int]
        var previous: [Float]

        init(rows: [[Float]]) {
            self.rows = rows
            cost1 = Array(repeating: .infinity, count: rows.count)
            cost2 = cost1
            length1 = Array(repeating: 1, count: rows.count)
            length2 = length1
            start1 = Array(repeating: 0, count: rows.count)
            start2 = start1
            previous = Array(repeating: 1, count: rows.count)
        }

        mutating func advance(_ x: [Float], index: Int) -> (Float, Int) {
            let distance = rows.map { row in
                var dot: Float = 0
                for band in 0..<x.count { dot += row[band] * x[band] }
                return 1 - dot
            }
            var cost0 = cost1, length0 = length1, start0 = start1
            cost0[0] = distance[0]
            length0[0] = 1
            start0[0] = index
            for row in 1..<rows.count {
                let d = distance[row]
                var bestCost = cost1[row - 1] + d, bestLength = length1[row - 1] + 1, bestStart = start1[row - 1]
                if row >= 2 {
                    let c = cost1[row - 2] + distance[row - 1] + d, l = length1[row - 2] + 2
                    if c * bestLength < bestCost * l { bestCost = c; bestLength = l; bestStart = start1[row - 2] }
                }
                let c = cost2[row - 1] + previous[row] + d, l = length2[row - 1] + 2
                if c * bestLength < bestCost * l { bestCost = c; bestLength = l; bestStart = start2[row - 1] }
                cost0[row] = bestCost
                length0[row] = bestLength
                start0[row] = bestStart
            }
            (cost2, cost1, length2, length1, start2, start1) = (cost1, cost0, length1, length0, start1, start0)
            previous = distance
            return (cost1[rows.count - 1] / length1[rows.count - 1], start1[rows.count - 1])
        }
    }

    /// Template lengths around the 8-row SIMD blocks (a tail of 0 to 7 rows).
    @Test(arguments: [3, 8, 13, 37, 64])
    func simdMatchesTheRowByRowDefinitionBitForBit(rows count: Int) {
        let rows = (0..<count).map { Self.frame(1000 + $0) }
        var matcher = SubsequenceMatcher(template: WakeWordTemplate(frames: rows, utterance: rows, source: "test"))
        var reference = Reference(rows: rows)
        for index in 0..<300 {
            let x = Self.frame(index % 97)
            let (distance, start) = matcher.advance(x, index: index)
            let (expected, expectedStart) = reference.advance(x, index: index)
            #expect(distance.bitPattern == expected.bitPattern, "frame \(index): \(distance) vs \(expected)")
            #expect(start == expectedStart)
        }
    }
}
