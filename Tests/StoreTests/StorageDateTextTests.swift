import Foundation
@testable import Store
import TestKit
import Testing

/// The store writes dates as GRDB's own `Date.databaseValue` does: the text of a `DateFormatter`
/// set up as GRDB's `storageDateFormatter` (GRDB/Core/Support/Foundation/Date.swift).
@Suite("StorageDateText", .oneAtATime)
struct StorageDateTextTests {
    static let grdbFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter
    }()

    @Test("the same text as GRDB's formatter", arguments: [
        0, 0.0004, 0.0005, 0.0015, 0.999, 0.9995, 0.9996, -0.0004, -0.0006, -0.5, -1, 59.999_999, 86_399.9995,
        951_782_400.123, 1_709_164_799.999_4, 1_798_389_267.0625, 2_147_483_647.25, 4_102_444_800.001,
        253_402_300_799.998, -2_208_988_800.5,
    ] as [Double])
    func sameAsGRDB(secondsSince1970: Double) {
        let date = Date(timeIntervalSince1970: secondsSince1970)
        #expect(StorageDateText.text(date) == Self.grdbFormatter.string(from: date))
    }

    @Test("now and the next ten seconds, every 0.1 ms, and a spread over 300 years")
    func manyDates() {
        var differences: [String] = []
        let now = Date().timeIntervalSinceReferenceDate
        for step in 0..<100_000 {
            let date = Date(timeIntervalSinceReferenceDate: now + Double(step) * 0.000_1)
            let ours = StorageDateText.text(date), theirs = Self.grdbFormatter.string(from: date)
            if ours != theirs { differences.append("\(date.timeIntervalSinceReferenceDate): \(ours) != \(theirs)") }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...7_258_118_400, using: &generator))
            let ours = StorageDateText.text(date), theirs = Self.grdbFormatter.string(from: date)
            if ours != theirs { differences.append("\(date.timeIntervalSinceReferenceDate): \(ours) != \(theirs)") }
        }
        #expect(differences.isEmpty, "\(differences.count) differ, e.g. \(differences.prefix(5))")
    }
}
