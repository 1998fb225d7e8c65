public import Assistant
import AudioCore
import Foundation

/// The offline backend: recognises a small command grammar with pocketsphinx and answers
/// from what it knows (the clock, the date, the glasses' battery, its own name). Anything
/// else gets "I didn't catch that": never a canned answer that ignores what was said.
public final class LocalAssistantBackend: AssistantBackend {
    public let name = "local"
    private let recognizer: GrammarRecognizer
    private let assistantName: String
    private let wakePhrase: String
    private let battery: @Sendable () -> Int?
    private let now: @Sendable () -> Date
    /// Below this posterior the phrase is taken for something outside the grammar.
    private let minimumConfidence: Double

    /// The commands it knows, as a JSGF grammar.
    static let grammar = """
        #JSGF V1.0;
        grammar commands;
        public <command> = what time is it | what is the time | what's the time
            | what is the date | what's the date | what day is it
            | what is my battery | what's my battery | how much battery is left
            | what is your name | what's your name | who are you
            | stop | cancel;
        """

    public init(
        assistantName: String = "Glasses", wakePhrase: String = "hey glasses", minimumConfidence: Double = 0.2,
        battery: @escaping @Sendable () -> Int? = { nil }, now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        recognizer = try GrammarRecognizer(grammar: Self.grammar)
        self.assistantName = assistantName
        self.wakePhrase = wakePhrase
        self.battery = battery
        self.now = now
        self.minimumConfidence = minimumConfidence
    }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        let audio = utterance.audio.format.sampleRate == 16000 ? utterance.audio : try Resampler.resample(utterance.audio, to: 16000)
        let pcm = audio.samples.map { Int16(max(-32768, min(32767, ($0 * 32767).rounded()))) }
        guard let (heard, confidence) = recognizer.recognize(pcm), confidence >= minimumConfidence else {
            return AssistantReply(heard: "", answer: "I didn't catch that.")
        }
        return AssistantReply(heard: heard, answer: answer(to: heard))
    }

    /// The answer to a phrase of the grammar.
    func answer(to phrase: String) -> String {
        let date = now()
        switch phrase {
        case "what time is it", "what is the time", "what's the time":
            return "It is \(Self.format(date, "h:mm a"))."
        case "what is the date", "what's the date", "what day is it":
            return "Today is \(Self.format(date, "EEEE, MMMM d"))."
        case "what is my battery", "what's my battery", "how much battery is left":
            return battery().map { "Your glasses are at \($0) percent." } ?? "I can't read the battery of these glasses."
        case "what is your name", "what's your name", "who are you":
            return "I am \(assistantName). Say \(wakePhrase) to wake me."
        case "stop", "cancel":
            return ""
        default:
            return "I didn't catch that."
        }
    }

    private static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
