import Foundation

/// What each setting accepts, checked before anything is stored; a refusal names the field
/// and the values allowed. Pure: the HTTP API and the fuzz target use it alike.
public enum SettingsRules {
    public static let personalities = ["friendly", "professional", "witty", "jarvis", "casual"]
    public static let engines = ["espeak"]
    public static let names = 1...40
    public static let keywordLength = 2...40
    public static let rates = 80...450
    /// The voice's pitch: 50 is its normal (espeak-ng's scale).
    public static let pitches = 0...100

    public static func name(_ value: String) throws(SettingsRefusal) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard names.contains(trimmed.count), !trimmed.contains(where: \.isNewline) else {
            throw SettingsRefusal("'name' must be \(names.lowerBound)...\(names.upperBound) characters on one line")
        }
        try printable(trimmed, field: "name")
        return trimmed
    }

    /// Refuses control and format characters (escape sequences, bidirectional overrides,
    /// zero-width characters): a value is shown on terminals and in logs as given.
    public static func printable(_ value: String, field: String) throws(SettingsRefusal) {
        let hidden = value.unicodeScalars.first { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: true
            default: false
            }
        }
        if let hidden {
            let code = "U+" + String(hidden.value, radix: 16, uppercase: true).leftPadded(to: 4)
            throw SettingsRefusal("'\(field)' holds an invisible or control character (\(code)); use printable characters only")
        }
    }

    public static func personality(_ value: String) throws(SettingsRefusal) -> String {
        guard personalities.contains(value) else {
            throw SettingsRefusal("'personality' must be one of \(personalities.joined(separator: ", ")); got '\(value.prefix(40))'")
        }
        return value
    }

    public static func wakeWord(keyword: String, sensitivity: Double?, current: AssistantSettings.WakeWord) throws(SettingsRefusal)
        -> AssistantSettings.WakeWord
    {
        let phrase = keyword.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard keywordLength.contains(phrase.count), phrase.unicodeScalars.allSatisfy(isSpeakable), phrase.contains(where: \.isLetter) else {
            throw SettingsRefusal(
                "'keyword' must be \(keywordLength.lowerBound)...\(keywordLength.upperBound) characters of Latin letters and spaces "
                    + "(what the wake-word voice speaks), e.g. \"hey glasses\"")
        }
        let value = sensitivity ?? current.sensitivity
        guard value.isFinite, (0...1).contains(value) else { throw SettingsRefusal("'sensitivity' must be a number in 0...1") }
        return AssistantSettings.WakeWord(keyword: phrase, sensitivity: value)
    }

    /// A letter of the Latin alphabet (accented ones too), a space or an apostrophe: what the
    /// English voice that builds wake-word templates can speak; other scripts and emoji make
    /// no usable model (and some take minutes to prepare).
    private static func isSpeakable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " || scalar == "'" { return true }
        guard scalar.properties.isAlphabetic else { return false }
        return ("a"..."z").contains(scalar) || (0xC0...0x24F).contains(scalar.value) && scalar.value != 0xD7 && scalar.value != 0xF7
    }

    public static func voice(engine: String?, rate: Int?, volume: Double?, pitch: Int? = nil, current: AssistantSettings.Voice) throws(SettingsRefusal)
        -> AssistantSettings.Voice
    {
        let engine = engine ?? current.engine
        guard engines.contains(engine) else { throw SettingsRefusal("'engine' must be one of \(engines.joined(separator: ", ")); got '\(engine.prefix(40))'") }
        let rate = rate ?? current.rate
        guard rates.contains(rate) else { throw SettingsRefusal("'rate' must be a whole number in \(rates.lowerBound)...\(rates.upperBound) (words per minute)") }
        let volume = volume ?? current.volume
        guard volume.isFinite, (0...1).contains(volume) else { throw SettingsRefusal("'volume' must be a number in 0...1") }
        let pitch = pitch ?? current.pitch
        guard pitches.contains(pitch) else { throw SettingsRefusal("'pitch' must be a whole number in \(pitches.lowerBound)...\(pitches.upperBound) (50 is the voice's normal)") }
        return AssistantSettings.Voice(engine: engine, rate: rate, volume: volume, pitch: pitch)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// A setting's value refused, with what is accepted (the API answers 400 with it).
public struct SettingsRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
