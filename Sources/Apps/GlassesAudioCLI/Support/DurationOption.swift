import ArgumentParser
import Foundation

/// A length of time given on the command line in seconds ("2.5"): a finite number within the
/// range its option accepts.
///
/// Every time option parses through one of these, so no value reaches a `Duration`
/// conversion that traps (`nan`, `1e300`) and none is accepted when it means nothing (`-1`).
/// A bad value is a usage error (exit 2): "The value 'nan' is invalid for '--timeout
/// <seconds>': give seconds within 0.1...3600".
struct DurationOption: Sendable {
    /// Accepted seconds, inclusive at both ends.
    let range: ClosedRange<Double>

    init(_ range: ClosedRange<Double>) {
        precondition(range.lowerBound >= 0, "durations are not negative")
        self.range = range
    }

    /// How long to wait for a route, a switch or a sound server.
    static let timeout = DurationOption(0.1...3600)
    /// How long to capture, meter or watch: up to a day.
    static let length = DurationOption(0.01...86_400)
    /// The pause that ends a spoken command: from a breath to a long hesitation.
    static let endSilence = DurationOption(0.2...5)
    /// How long a command may take to start.
    static let commandWait = DurationOption(1...60)
    /// How long the assistant's backend may take to answer a command.
    static let replyTimeout = DurationOption(1...300)
    /// Between two meter readings.
    static let meterInterval = DurationOption(0.01...10)
    /// When a scripted step happens, from the start: up to a day.
    static let scriptTime = DurationOption(0...86_400)

    /// The duration `text` stands for, or an error saying what is accepted.
    func parse(_ text: String) throws(OptionValueError) -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let seconds = Double(trimmed), seconds.isFinite, range.contains(seconds), !trimmed.isEmpty else {
            throw OptionValueError("give seconds within \(describe(range))")
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// For `@Option(transform:)`.
    var transform: @Sendable (String) throws -> Duration {
        let option = self
        return { text in try option.parse(text) }
    }

    /// A finite number within `range` (a rate or a factor rather than a time), or an error
    /// naming the range and what the number means.
    static func number(_ text: String, in range: ClosedRange<Double>, meaning: String) throws(OptionValueError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = Double(trimmed), value.isFinite, range.contains(value) else {
            throw OptionValueError("give \(meaning) within \(describe(range))")
        }
        return value
    }
}

/// Why a command-line value was refused, said as what would have been accepted.
struct OptionValueError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `0.1...3600`, without the trailing zeros `Double` prints.
func describe(_ range: ClosedRange<Double>) -> String {
    "\(compact(range.lowerBound))...\(compact(range.upperBound))"
}

func compact(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
}
