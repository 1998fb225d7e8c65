import Daemon
import Foundation
import Testing
import TestKit

/// The log line's timestamp is the ISO 8601 format style's text, made without ICU.
@Suite("UTCTimestamp", .oneAtATime)
struct UTCTimestampTests {
    @Test("the same text as Date.formatted(.iso8601)", arguments: [
        0, 0.999, -0.5, -1, 59.999_999, 86_399.5, 951_782_400, 1_709_164_799.75, 1_798_389_267,
        1_798_387_200, 2_147_483_647, 4_102_444_800, 253_402_300_799, -2_208_988_800,
    ] as [Double])
    func sameAsFormatStyle(seconds: Double) {
        let expected = Date(timeIntervalSince1970: seconds).formatted(.iso8601)
        #expect(UTCTimestamp.text(secondsSince1970: seconds) == expected)
    }

    @Test("every hour of a leap year, a second before and at each")
    func everyHourOfALeapYear() {
        let start = 1_704_067_200.0  // 2024-01-01T00:00:00Z
        var differences: [String] = []
        for hour in 0..<(366 * 24) {
            for offset in [-1.0, 0, 0.25] {
                let seconds = start + Double(hour) * 3600 + offset
                let ours = UTCTimestamp.text(secondsSince1970: seconds)
                let theirs = Date(timeIntervalSince1970: seconds).formatted(.iso8601)
                if ours != theirs { differences.append("\(seconds): \(ours) != \(theirs)") }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }
}
