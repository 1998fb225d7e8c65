public import Foundation
#if canImport(Glibc)
internal import Glibc
#endif

/// A date as GRDB stores it (`yyyy-MM-dd HH:mm:ss.SSS` in UTC, the text `Date.databaseValue`
/// writes), made with `gmtime_r` and integer formatting. GRDB writes it with a `DateFormatter`,
/// which opens ICU's calendar, locale and zone data in the listening daemon for every event it
/// logs (issue 30). The millisecond is GRDB's: CoreFoundation adds half a millisecond before ICU
/// rounds down.
enum StorageDateText {
    static func text(_ date: Date) -> String {
        let milliseconds = ((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down)
        let whole = Int64(milliseconds)
        let millisecond = Int(((whole % 1000) + 1000) % 1000)
        var seconds = time_t((whole - Int64(millisecond)) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out = padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2)
        out += "-" + padded(Int(parts.tm_mday), 2) + " " + padded(Int(parts.tm_hour), 2)
        out += ":" + padded(Int(parts.tm_min), 2) + ":" + padded(Int(parts.tm_sec), 2) + "." + padded(millisecond, 3)
        return out
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
