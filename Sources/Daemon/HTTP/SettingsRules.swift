import Foundation
import Store

/// What each setting accepts, checked before anything is stored; a refusal names the field
/// and the values allowed.
enum SettingsRules {
    static let personalities = ["friendly", "professional", "witty", "jarvis", "casual"]
    static let engines = ["espeak"]
    static let names = 1...40
    static let keywordLength = 2...40
    static let rates = 80...450

    static func name(_ value: String) throws(APIError) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard names.contains(trimmed.count), !trimmed.contains(where: \.isNewline) else {
            throw .badRequest("'name' must be \(names.lowerBound)...\(names.upperBound) characters on one line")
        }
        return trimmed
    }

    static func personality(_ value: String) throws(APIError) -> String {
        guard personalities.contains(value) else {
            throw .badRequest("'personality' must be one of \(personalities.joined(separator: ", ")); got '\(value.prefix(40))'")
        }
        return value
    }

    static func wakeWord(keyword: String, sensitivity: Double?, current: AssistantSettings.WakeWord) throws(APIError)
        -> AssistantSettings.WakeWord
    {
        let phrase = keyword.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard keywordLength.contains(phrase.count), phrase.allSatisfy({ $0.isLetter || $0 == " " || $0 == "'" }) else {
            throw .badRequest(
                "'keyword' must be \(keywordLength.lowerBound)...\(keywordLength.upperBound) characters of letters and spaces, e.g. \"hey glasses\"")
        }
        let value = sensitivity ?? current.sensitivity
        guard value.isFinite, (0...1).contains(value) else { throw .badRequest("'sensitivity' must be a number in 0...1") }
        return AssistantSettings.WakeWord(keyword: phrase, sensitivity: value)
    }

    static func voice(engine: String?, rate: Int?, volume: Double?, current: AssistantSettings.Voice) throws(APIError)
        -> AssistantSettings.Voice
    {
        let engine = engine ?? current.engine
        guard engines.contains(engine) else { throw .badRequest("'engine' must be one of \(engines.joined(separator: ", ")); got '\(engine.prefix(40))'") }
        let rate = rate ?? current.rate
        guard rates.contains(rate) else { throw .badRequest("'rate' must be a whole number in \(rates.lowerBound)...\(rates.upperBound) (words per minute)") }
        let volume = volume ?? current.volume
        guard volume.isFinite, (0...1).contains(volume) else { throw .badRequest("'volume' must be a number in 0...1") }
        return AssistantSettings.Voice(engine: engine, rate: rate, volume: volume)
    }
}
