import Foundation

/// What the emulator can be told, on stdin or in `--script`.
enum EmulatorCommand: Sendable, Equatable {
    case connect, disconnect, status
    /// The glasses open the voice link themselves (a button press).
    case voice
    /// The glasses' touch: AVRCP play, at bluetoothd's input device for their keys.
    case touch
    case waitServer
    case quit
    /// Set the glasses' battery level (percent).
    case battery(Int)

    static let known = "connect, disconnect, status, voice, touch, battery N (0-100), wait server, quit"

    /// The command `text` names, or an error listing the known ones.
    init(parsing text: String) throws(EmulatorUsageError) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words.joined(separator: " ") {
        case "connect": self = .connect
        case "disconnect": self = .disconnect
        case "status": self = .status
        case "voice": self = .voice
        case "touch": self = .touch
        case "wait server": self = .waitServer
        case "quit": self = .quit
        default:
            guard words.first == "battery" else {
                throw EmulatorUsageError("unknown command \"\(text)\"; known: \(Self.known)")
            }
            guard words.count == 2, let level = Int(words[1]), (0...100).contains(level) else {
                throw EmulatorUsageError("battery takes a level in percent, 0-100 (got \"\(words.dropFirst().joined(separator: " "))\")")
            }
            self = .battery(level)
        }
    }
}

/// `"2s connect; 500ms disconnect; quit"`: steps, each an optional wait then a command,
/// checked before anything starts so a typo is a usage error rather than a skipped step.
struct EmulatorScript: Sendable, Equatable {
    struct Step: Sendable, Equatable {
        var wait: Duration
        var command: EmulatorCommand
    }

    /// The longest wait one step may have: a day.
    static let longestWait = Duration.seconds(86_400)

    var steps: [Step]

    init(parsing script: String) throws(EmulatorUsageError) {
        steps = []
        for text in script.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !text.isEmpty {
            var words = text.split(separator: " ").map(String.init)
            var wait = Duration.zero
            if let first = words.first, first.first?.isNumber == true || first.first == "." || first.first == "-" {
                wait = try Self.wait(first, in: text)
                words.removeFirst()
            }
            do {
                steps.append(Step(wait: wait, command: try EmulatorCommand(parsing: words.joined(separator: " "))))
            } catch {
                throw EmulatorUsageError("step \"\(text)\": \(error)")
            }
        }
    }

    /// `2s`, `1.5s` or `500ms`: finite, not negative, at most ``longestWait``.
    static func wait(_ word: String, in step: String) throws(EmulatorUsageError) -> Duration {
        let (number, scale): (Substring, Double) =
            word.hasSuffix("ms") ? (word.dropLast(2), 1e6) : word.hasSuffix("s") ? (word.dropLast(), 1e9) : (word[...], 0)
        guard scale > 0, let value = Double(number), value.isFinite, value >= 0,
              value * scale <= Double(longestWait.components.seconds) * 1e9
        else {
            throw EmulatorUsageError("step \"\(step)\": the wait \"\(word)\" must be a number of seconds (2s) or milliseconds (500ms) within 0...86400 s")
        }
        return .nanoseconds(Int64((value * scale).rounded()))
    }
}

/// Input the emulator refuses: a usage error (exit 2) saying what is accepted.
struct EmulatorUsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
