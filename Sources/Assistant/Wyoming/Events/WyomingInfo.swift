/// The `info` answer to `describe`: this satellite, its mic and speaker formats, and the wake
/// words it can listen for. Encoded with every field the Python package's `Info.from_event`
/// needs (name, attribution, installed, description, version on each artifact).
public struct WyomingInfo: Sendable, Equatable {
    public struct Satellite: Sendable, Equatable {
        public var name: String
        public var area: String?
        public var hasVAD: Bool
        public var activeWakeWords: [String]
        public var maxActiveWakeWords: Int
        public var supportsTrigger: Bool

        public init(
            name: String, area: String? = nil, hasVAD: Bool = true, activeWakeWords: [String] = [], maxActiveWakeWords: Int = 1,
            supportsTrigger: Bool = false
        ) {
            self.name = name
            self.area = area
            self.hasVAD = hasVAD
            self.activeWakeWords = activeWakeWords
            self.maxActiveWakeWords = maxActiveWakeWords
            self.supportsTrigger = supportsTrigger
        }
    }

    /// One wake word the service detects: its id (`detection`'s `name`) and phrase.
    public struct WakeWord: Sendable, Equatable {
        public var name: String
        public var phrase: String
        public var languages: [String]

        public init(name: String, phrase: String, languages: [String] = ["en"]) {
            self.name = name
            self.phrase = phrase
            self.languages = languages
        }
    }

    public var satellite: Satellite?
    public var mic: WyomingAudioFormat?
    public var snd: WyomingAudioFormat?
    /// The wake-word program's name, and what it detects (none: no `wake` program).
    public var wakeProgram: String
    public var wakeWords: [WakeWord]
    public var version: String

    public init(
        satellite: Satellite? = nil, mic: WyomingAudioFormat? = nil, snd: WyomingAudioFormat? = nil, wakeProgram: String = "glasses-wake",
        wakeWords: [WakeWord] = [], version: String = "1.0"
    ) {
        self.satellite = satellite
        self.mic = mic
        self.snd = snd
        self.wakeProgram = wakeProgram
        self.wakeWords = wakeWords
        self.version = version
    }

    var json: [String: WyomingJSON] {
        var data: [String: WyomingJSON] = ["asr": [], "tts": [], "handle": [], "intent": [], "wake": [], "mic": [], "snd": []]
        if let satellite {
            var entry = artifact(satellite.name, "GlassesAudio satellite")
            entry["area"] = satellite.area.map { .string($0) } ?? .null
            entry["has_vad"] = .bool(satellite.hasVAD)
            entry["active_wake_words"] = .array(satellite.activeWakeWords.map { .string($0) })
            entry["max_active_wake_words"] = .int(satellite.maxActiveWakeWords)
            entry["supports_trigger"] = .bool(satellite.supportsTrigger)
            data["satellite"] = .object(entry)
        }
        if let mic {
            var entry = artifact("glasses-mic", "the glasses' microphone")
            entry["mic_format"] = .object(mic.json)
            data["mic"] = [.object(entry)]
        }
        if let snd {
            var entry = artifact("glasses-speaker", "the glasses' speaker")
            entry["snd_format"] = .object(snd.json)
            data["snd"] = [.object(entry)]
        }
        if !wakeWords.isEmpty {
            var program = artifact(wakeProgram, "GlassesAudio wake-word detection")
            program["models"] = .array(wakeWords.map { word in
                var model = artifact(word.name, word.phrase)
                model["phrase"] = .string(word.phrase)
                model["languages"] = .array(word.languages.map { .string($0) })
                return .object(model)
            })
            data["wake"] = [.object(program)]
        }
        return data
    }

    private func artifact(_ name: String, _ description: String) -> [String: WyomingJSON] {
        [
            "name": .string(name), "description": .string(description), "installed": true, "version": .string(version),
            "attribution": ["name": "GlassesAudio", "url": "https://github.com/glassesaudio"],
        ]
    }

    init(json data: [String: WyomingJSON]) {
        if case .object(let entry)? = data["satellite"] {
            satellite = Satellite(
                name: entry["name"]?.stringValue ?? "", area: entry["area"]?.stringValue, hasVAD: entry["has_vad"]?.boolValue ?? false,
                activeWakeWords: entry["active_wake_words"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                maxActiveWakeWords: entry["max_active_wake_words"]?.intValue ?? 0, supportsTrigger: entry["supports_trigger"]?.boolValue ?? false)
        }
        mic = Self.format(data["mic"], key: "mic_format")
        snd = Self.format(data["snd"], key: "snd_format")
        let program = data["wake"]?.arrayValue?.first?.members ?? [:]
        wakeProgram = program["name"]?.stringValue ?? ""
        wakeWords = (program["models"]?.arrayValue ?? []).map { model in
            WakeWord(
                name: model.members["name"]?.stringValue ?? "", phrase: model.members["phrase"]?.stringValue ?? "",
                languages: model.members["languages"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
        version = program["version"]?.stringValue ?? ""
    }

    private static func format(_ value: WyomingJSON?, key: String) -> WyomingAudioFormat? {
        guard let entry = value?.arrayValue?.first?.members[key]?.members,
            let rate = entry["rate"]?.intValue, let width = entry["width"]?.intValue, let channels = entry["channels"]?.intValue
        else { return nil }
        return WyomingAudioFormat(rate: rate, width: width, channels: channels)
    }
}
