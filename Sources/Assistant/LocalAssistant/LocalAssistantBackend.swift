public import Assistant
import AudioCore
public import CommandClassifier
import Foundation
import Synchronization

/// The offline backend: recognises a small command grammar with pocketsphinx and answers
/// from what it knows (the clock, the date, the glasses' battery, its own name). Anything
/// else gets "I didn't catch that": never a canned answer that ignores what was said.
public final class LocalAssistantBackend: AssistantBackend {
    public let name = "local"
    let recognizer: GrammarRecognizer
    /// The narrowband searches, on a decoder of their own adapted to the link (made at the first
    /// narrowband utterance: a second acoustic model costs about 26 MB).
    private let narrowbandRecognizer = Mutex<GrammarRecognizer?>(nil)
    /// The MLLR transform the narrowband decoder applies (`nil`: the model as shipped).
    public let narrowbandTransform: String?
    /// The command classifier that decides on narrowband links (`nil`: pocketsphinx decides
    /// alone, as before it; see ``decide(_:)``).
    public let commandClassifier: CommandClassifier?
    private let identity: @Sendable () -> Identity
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

    /// Who it says it is when asked its name.
    public struct Identity: Sendable, Equatable {
        public var name: String
        public var wakePhrase: String

        public init(name: String, wakePhrase: String) { (self.name, self.wakePhrase) = (name, wakePhrase) }
    }

    public convenience init(
        assistantName: String = "Glasses", wakePhrase: String = "hey glasses",
        battery: @escaping @Sendable () -> Int? = { nil }, now: @escaping @Sendable () -> Date = { Date() },
        narrowbandTransform: String? = LocalAssistantBackend.shippedNarrowbandTransform,
        decider: Decider = .shippedClassifier
    ) throws {
        let identity = Identity(name: assistantName, wakePhrase: wakePhrase)
        try self.init(identity: { identity }, battery: battery, now: now, narrowbandTransform: narrowbandTransform, decider: decider)
    }

    /// `identity` is asked at each answer, so a name or wake phrase changed while it runs
    /// applies at once. `narrowbandTransform`: the MLLR transform adapting the model to 8 kHz
    /// links (the shipped one by default; `nil`: the model as shipped on every link).
    /// `decider`: what decides which command was said (``Decider``).
    public init(
        identity: @escaping @Sendable () -> Identity,
        battery: @escaping @Sendable () -> Int? = { nil }, now: @escaping @Sendable () -> Date = { Date() },
        narrowbandTransform: String? = LocalAssistantBackend.shippedNarrowbandTransform,
        decider: Decider = .shippedClassifier
    ) throws {
        switch decider {
        case .shippedClassifier: commandClassifier = try Self.shippedCommandClassifier()
        case .pocketsphinx: commandClassifier = nil
        case .classifier(let given): commandClassifier = given
        }
        recognizer = try GrammarRecognizer([
            .init(search: .commandsOrOther, jsgf: Self.grammar(withOtherWords: true)),
            .init(search: .commands, jsgf: Self.grammar(withOtherWords: false)),
        ], streams: .carried)
        self.narrowbandTransform = narrowbandTransform
        self.identity = identity
        self.battery = battery
        self.now = now
    }

    /// The file name of the narrowband transform in `models/pocketsphinx`.
    public static let narrowbandTransformName = "en-us-narrowband.mllr"

    /// The transform the project ships (`models/pocketsphinx/en-us-narrowband.mllr`, made by
    /// `scripts/make-narrowband-transform`; its PROVENANCE.md says how), in an installed copy or
    /// a checkout; `nil` when none is found.
    public static var shippedNarrowbandTransform: String? {
        guard let folder = ResourceLocator.find("models/pocketsphinx") else { return nil }
        let path = folder + "/" + narrowbandTransformName
        return FileManager.default.isReadableFile(atPath: path) ? path : nil
    }

    /// The narrowband decoder, made on first use.
    func narrowband() throws -> GrammarRecognizer {
        try narrowbandRecognizer.withLock { made in
            if let made { return made }
            let recognizer = try GrammarRecognizer([
                .init(search: .narrowbandCommands, jsgf: Self.grammar(withOtherWords: false), forcedChoice: true),
                .init(search: .narrowbandCommandsOrOther, jsgf: Self.grammar(withOtherWords: true), forcedChoice: true),
                .init(search: .narrowbandEveryday, jsgf: Self.everydayGrammar, forcedChoice: true),
            ], transform: narrowbandTransform, streams: .fresh)
            made = recognizer
            return recognizer
        }
    }

    /// A run of everyday words alone (the narrowband check's model of other speech).
    static var everydayGrammar: String {
        let other = otherWords.split(separator: " ").joined(separator: " | ")
        return """
            #JSGF V1.0;
            grammar everyday;
            public <utterance> = <other>+;
            <other> = \(other);
            """
    }

    /// Decodes on a thread of its own: pocketsphinx blocks for a while, and Swift's cooperative
    /// threads (two on a 2-core board) must keep the audio flowing meanwhile.
    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        try await DedicatedThreadExecutor.run(named: "pocketsphinx decode") { try self.decode(utterance) }
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
        /// On a narrowband link: the forced-choice decoder's command, before the open decode's
        /// check (`nil`: none, or a wideband link).
        public var candidate: String?
        /// On a narrowband link: what the open decode (the commands or a run of everyday words)
        /// heard ("": nothing; `nil`: not run).
        public var openDecode: String?
        /// The link was narrowband (under 16 kHz).
        public var narrowband: Bool
        /// On a narrowband link: the forced choice's margin over other speech
        /// (``NarrowbandCheck/margin``; `nil`: not measured).
        public var margin: Double?
        /// Decided by the command classifier: the probability of its winning class (a command's
        /// phrasings summed, or "something else"; `nil`: pocketsphinx decided).
        public var probability: Double?
        /// The classifier's command before a command with an effect was confirmed (`nil`: none).
        public var classified: String?
        /// When the classifier named a phrasing with an effect: the forced choice's phrasings,
        /// best first (its N-best list read for the grammar's phrasings; `nil`: not run).
        public var ranking: [String]?
        /// Decided by the command classifier: the seconds of speech the VAD heard in the command
        /// (under ``LocalAssistantBackend/leastSpeech``: refused, whatever was classified).
        public var speech: Double?

        public init(heard: String, command: String?, candidate: String? = nil, openDecode: String? = nil, narrowband: Bool, margin: Double? = nil,
                    probability: Double? = nil, classified: String? = nil, ranking: [String]? = nil, speech: Double? = nil) {
            self.heard = heard
            self.command = command
            self.candidate = candidate
            self.openDecode = openDecode
            self.narrowband = narrowband
            self.margin = margin
            self.probability = probability
            self.classified = classified
            self.ranking = ranking
            self.speech = speech
        }
    }

    /// How many words outside the commands the wideband mixed decode may hear before the audio
    /// is taken for something else (the mixed decode is trusted there).
    public static let widebandOtherWordLimit = 2

    /// Decodes an utterance: the command it says, if any.
    /// `ranking`: also read pocketsphinx's N-best ranking of the commands on narrowband links, for
    /// the record (`voice-eval commands --json`); the decision itself needs only its best path.
    public func decide(_ utterance: Utterance, ranking: Bool = false) throws -> Decision {
        let audio = utterance.audio.format.sampleRate == 16000 ? utterance.audio : try Resampler.resample(utterance.audio, to: 16000)
        let pcm = audio.samples.map { Int16(max(-32768, min(32767, ($0 * 32767).rounded()))) }
        let narrowband = (utterance.linkRate ?? 16000) < 16000
        // Narrowband links only: over 16 kHz the classifier answered 14 of 111 of the flite requests in
        // LocalAssistantBackendTests.widebandOutsideGrammarNeverEffectful, 6 with an effect (pocketsphinx: 2, none).
        if narrowband, let commandClassifier {
            return try decideByClassifier(commandClassifier, samples: audio.samples, pcm: pcm, ranking: ranking)
        }
        if narrowband { return try decideNarrowband(pcm) }
        // Wideband: against commands or a run of everyday words (a run of two or more other
        // words means something else was said); then against the commands alone at the default
        // beams, whose pruning rejects other speech the first decode let through. A command with
        // an effect stands only when the mixed decode heard it itself: the commands alone name
        // one for speech they lack ("wake me up at seven" was taken for "stop").
        var heard: String?
        let mixed = recognizer.recognize(pcm, in: .commandsOrOther)
        if let mixed {
            if Self.command(mixed) != nil { heard = mixed }
            else if mixed.split(separator: " ").count >= Self.widebandOtherWordLimit { return Decision(heard: mixed, command: nil, narrowband: false) }
        }
        guard let forced = recognizer.recognize(pcm, in: .commands), Self.command(heard ?? forced) != nil else {
            return Decision(heard: heard ?? "", command: nil, narrowband: false)
        }
        if heard == nil && Self.effectful.contains(forced) { return Decision(heard: mixed ?? "", command: nil, narrowband: false) }
        let phrase = heard ?? forced
        return Decision(heard: phrase, command: phrase, narrowband: false)
    }

    /// A narrowband link (CVSD, 8 kHz) carries nothing above 4 kHz, which the 16 kHz model
    /// expects: every path scores low, and the forced choice among the commands (at wide beams,
    /// where at the default ones one clean command in four ended with no path through the
    /// grammar) always names one, "cancel" for a request the grammar lacks. Its decoder applies
    /// the narrowband transform, and the choice is checked (``NarrowbandCheck``) against the same
    /// audio as a run of everyday words and against an open decode, all at the same wide beams.
    private func decideNarrowband(_ pcm: [Int16]) throws -> Decision {
        let decoder = try narrowband()
        guard let forced = decoder.hypothesis(pcm, in: .narrowbandCommands), Self.command(forced.text) != nil else {
            return Decision(heard: "", command: nil, narrowband: true)
        }
        let open = decoder.recognize(pcm, in: .narrowbandCommandsOrOther) ?? ""
        let everyday = decoder.hypothesis(pcm, in: .narrowbandEveryday)
        let check = NarrowbandCheck(forcedPerFrame: forced.scorePerFrame, everydayPerFrame: everyday?.scorePerFrame,
                                    openDecode: OpenDecodeCheck(openDecode: open, phrases: Self.phrases))
        let stands = check.accepts(forced.text, effectful: Self.effectful.contains(forced.text), sameCommand: Self.sameCommand)
        return Decision(heard: stands ? forced.text : open, command: stands ? forced.text : nil, candidate: forced.text, openDecode: open,
                        narrowband: true, margin: check.margin)
    }

    /// Every phrasing of every command.
    static let phrases = Command.allCases.flatMap { commands[$0]! }

    /// Whether a narrowband forced choice stands against the open decode by its count of other
    /// words alone (the check before ``NarrowbandCheck``; `voice-eval commands` compares them).
    public static func check(candidate: String, openDecode: String, otherWordLimit: Int) -> Bool {
        OpenDecodeCheck(openDecode: openDecode, phrases: phrases).accepts(candidate, otherWordLimit: otherWordLimit, sameCommand: sameCommand)
    }

    /// The phrases whose command ends the round trip without a word.
    public static let effectful: Set<String> = Set(commands[.stop]!)

    /// Two phrases say the same command ("what time is it", "what is the time").
    public static func sameCommand(_ a: String, _ b: String) -> Bool {
        command(a).map { $0 == command(b) } ?? false
    }

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
        case .name:
            let identity = identity()
            return "I am \(identity.name). Say \(identity.wakePhrase) to wake me."
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
