import Glibc

/// A log line's UTC time as `Date.formatted(.iso8601)` writes it (`2026-11-27T15:14:27Z`, whole
/// seconds rounded down), made with `gmtime_r` and integer formatting. The ISO 8601 format style
/// builds a Gregorian calendar with the current time zone, which opens ICU's zone data and code
/// in a daemon that otherwise needs neither (issue 30).
public enum UTCTimestamp {
    /// The text for `secondsSince1970` (fractions count down to the whole second before them).
    public static func text(secondsSince1970: Double) -> String {
        var whole = time_t(secondsSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&whole, &parts)
        var out = padded(Int(parts.tm_year) + 1900, 4)
        out += "-" + padded(Int(parts.tm_mon) + 1, 2) + "-" + padded(Int(parts.tm_mday), 2)
        out += "T" + padded(Int(parts.tm_hour), 2) + ":" + padded(Int(parts.tm_min), 2)
        out += ":" + padded(Int(parts.tm_sec), 2) + "Z"
        return out
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
