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

    /// The commands it knows, each with its phrasings.
    static let commands: [Command: [String]] = [
        .time: ["what time is it", "what is the time"],
        .date: ["what is the date", "what day is it", "what is the date today"],
        .battery: ["what is my battery", "how much battery is left", "what is the battery"],
        .name: ["what is your name", "who are you"],
        .stop: ["stop", "cancel", "never mind"],
    ]

    enum Command: CaseIterable { case time, date, battery, name, stop }

    /// Words of everyday requests outside the grammar: speech that is not a command matches a
    /// run of these better than any command, so it is not forced onto the nearest command.
    static let otherWords = """
        play music song turn off lights light kitchen please set timer minutes call send message open \
        close door weather tomorrow tell joke news remind read email start navigation home work volume \
        next previous pause resume take picture photo video record share find where nearest coffee \
        restaurant living room bedroom thermostat degrees alarm morning weekend mom dad
        """

    /// The JSGF grammar: one public rule, a command or (`withOtherWords`) a run of other words.
    static func grammar(withOtherWords: Bool) -> String {
        let phrases = Command.allCases.flatMap { commands[$0]! }.joined(separator: " | ")
        let other = otherWords.split(separator: " ").joined(separator: " | ")
        return """
            #JSGF V1.0;
            grammar commands;
            public <utterance> = \(withOtherWords ? "/200/ <command> | /1/ <other>+" : "<command>");
            <command> = \(phrases);
            <other> = \(other);
            """
    }

    public init(
        assistantName: String = "Glasses", wakePhrase: String = "hey glasses", 
        battery: @escaping @Sendable () -> Int? = { nil }, now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        recognizer = try GrammarRecognizer([
            .init(search: .commandsOrOther, jsgf: Self.grammar(withOtherWords: true)),
            .init(search: .commands, jsgf: Self.grammar(withOtherWords: false)),
            .init(search: .narrowbandCommands, jsgf: Self.grammar(withOtherWords: false), forcedChoice: true),
        ])
        self.assistantName = assistantName
        self.wakePhrase = wakePhrase
        self.battery = battery
        self.now = now
    }

    /// Decodes on a thread of its own: pocketsphinx blocks for a while, and Swift's cooperative
    /// threads (two on a 2-core board) must keep the audio flowing meanwhile.
    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try self.decode(utterance) }) }
        }
    }

    func decode(_ utterance: Utterance) throws -> AssistantReply {
        let decision = try decide(utterance)
        guard let phrase = decision.command, let command = Self.command(phrase) else {
            return AssistantReply(heard: decision.heard, answer: "I didn't catch that.")
        }
        return AssistantReply(heard: decision.heard, answer: answer(to: command))
    }

    /// What one utterance was taken to be, and why.
    public struct Decision: Sendable, Equatable {
        /// The words the decoders heard ("" when nothing was).
        public var heard: String
        /// The command acted on; `nil`: "I didn't catch that".
        public var command: String?
        /// The best command's acoustic score less the garbage model's (any phones), per 10 ms
        /// frame of the command's speech, in pocketsphinx's score units: 0 = the command
        /// explains the audio as well as any phones do, the more negative the worse; `nil` when
        /// no command was found or none was weighed (only commands with an effect are, where a
        /// margin is needed).
        public var margin: Double?
        /// The link was narrowband (under 16 kHz).
        public var narrowband: Bool
    }

    /// The least margin a command with an effect (``effectful``) needs, per link: on a narrowband
    /// link the forced-choice decoder always finds some command, and "cancel" for a request the
    /// grammar lacks releases the route and says nothing. Provisional, from a small measurement
    /// with `voice-eval commands` on a corpus from `scripts/make-command-corpus` (docs/voice.md,
    /// "Commands"): the margin separates commands from other speech poorly at 8 kHz, so it gates
    /// only the commands whose mistake costs most; wideband keeps the mixed decode's rejection
    /// (a clean "stop" scored under -15 there).
    public static let minimumMargin = (wideband: -Double.infinity, narrowband: -15.0)

    /// Decodes an utterance: the command it says, if any.
    public func decide(_ utterance: Utterance) throws -> Decision {
        let audio = utterance.audio.format.sampleRate == 16000 ? utterance.audio : try Resampler.resample(utterance.audio, to: 16000)
        let pcm = audio.samples.map { Int16(max(-32768, min(32767, ($0 * 32767).rounded()))) }
        // Up to three decodes: against commands or a run of everyday words (wideband: a run of
        // two or more other words means something else was said); against the commands alone
        // (always one of them: the best match); and against any phones, the garbage model. A
        // narrowband link (CVSD, 8 kHz) carries nothing above 4 kHz, which the 16 kHz model
        // expects: every path scores low and the mixed decode cannot be trusted there, but the
        // garbage model scores the same missing band, so the margin between the two holds.
        let narrowband = (utterance.linkRate ?? 16000) < 16000
        var heard: String?
        if !narrowband, let mixed = recognizer.recognize(pcm, in: .commandsOrOther)?.text {
            if Self.command(mixed) != nil { heard = mixed }
            else if mixed.split(separator: " ").count >= 2 { return Decision(heard: mixed, command: nil, margin: nil, narrowband: false) }
        }
        // The commands alone: at wide beams on a narrowband link, where at the default ones one
        // clean command in four ended with no path through the grammar (heard as nothing);
        // at the default ones on wideband, whose pruning rejects other speech the first decode
        // let through.
        guard let forced = recognizer.recognize(pcm, in: narrowband ? .narrowbandCommands : .commands),
            Self.command(heard ?? forced.text) != nil
        else {
            return Decision(heard: heard ?? "", command: nil, margin: nil, narrowband: narrowband)
        }
        let phrase = heard ?? forced.text
        // The garbage model can change a decision only for a command with an effect where a
        // margin is needed (wideband's is -infinity): elsewhere its decode, which takes seconds
        // on a narrowband command (more than the others together), is skipped.
        let needed = narrowband ? Self.minimumMargin.narrowband : Self.minimumMargin.wideband
        let gated = Self.effectful.contains(phrase)
        guard gated, needed > -Double.infinity else { return Decision(heard: phrase, command: phrase, margin: nil, narrowband: narrowband) }
        guard let garbage = recognizer.recognize(pcm, in: .phones) else {
            return Decision(heard: phrase, command: nil, margin: nil, narrowband: narrowband)
        }
        // Acoustic scores alone (the garbage model's phone n-grams would weigh against it), per
        // frame of the command's speech (silence scores alike in both and would dilute it).
        let margin = (forced.acoustic - garbage.acoustic) / Double(max(1, forced.speechFrames))
        return Decision(heard: phrase, command: margin >= needed ? phrase : nil, margin: margin, narrowband: narrowband)
    }

    /// The phrases whose command ends the round trip without a word.
    public static let effectful: Set<String> = Set(commands[.stop]!)

    /// The command a phrase says, or `nil` for other words.
    static func command(_ phrase: String) -> Command? {
        Command.allCases.first { commands[$0]!.contains(phrase) }
    }

    /// The answer to a command, from what it asks.
    func answer(to command: Command) -> String {
        let date = now()
        switch command {
        case .time: return "It is \(Self.format(date, "h:mm a"))."
        case .date: return "Today is \(Self.format(date, "EEEE, MMMM d"))."
        case .battery: return battery().map { "Your glasses are at \($0) percent." } ?? "I can't read the battery of these glasses."
        case .name: return "I am \(assistantName). Say \(wakePhrase) to wake me."
        case .stop: return ""
        }
    }

    private static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
