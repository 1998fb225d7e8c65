import Foundation
public import AudioCore
public import Speech
public import Voice

/// Prepares wake-phrase models: from text alone (espeak-ng in several voices, rates and pitches)
/// and from a speaker's own recordings (enrollment). Models from text are cached on disk, keyed
/// by the phrase and every parameter that shaped them, and written atomically.
public struct WakeWordTemplateBuilder: Sendable {
    /// The voices the phrase is spoken in; one template each.
    public var voices: [EspeakVoice]
    /// Where prepared models are kept, or `nil` for no cache.
    public var cacheDirectory: String?
    /// Trains the per-phrase classifier when set (about 20 s in a release build); `nil` for
    /// DTW alone.
    public var classifierTrainer: WakeWordClassifierTrainer?

    /// Bumped whenever the front end or template format changes, so old caches are not reused.
    static let formatVersion = 14

    public init(
        voices: [EspeakVoice] = Self.defaultVoices, cacheDirectory: String? = Self.defaultCacheDirectory,
        classifierTrainer: WakeWordClassifierTrainer? = WakeWordClassifierTrainer()
    ) {
        self.voices = voices
        self.cacheDirectory = cacheDirectory
        self.classifierTrainer = classifierTrainer
    }

    /// A spread of espeak-ng voices: both sexes, three accents, slow to fast, low to high.
    public static let defaultVoices: [EspeakVoice] = [
        EspeakVoice(name: "en-us", variant: nil, rate: 165, pitch: 50),
        EspeakVoice(name: "en-us", variant: "m3", rate: 150, pitch: 40),
        EspeakVoice(name: "en-us", variant: "f3", rate: 170, pitch: 60),
        EspeakVoice(name: "en-us", variant: "f1", rate: 140, pitch: 55),
        EspeakVoice(name: "en-us", variant: "m7", rate: 190, pitch: 45),
        EspeakVoice(name: "en", variant: "m2", rate: 160, pitch: 35),
        EspeakVoice(name: "en", variant: "f2", rate: 180, pitch: 65),
        EspeakVoice(name: "en-gb-x-rp", variant: "klatt", rate: 155, pitch: 50),
        EspeakVoice(name: "en-029", variant: "m1", rate: 170, pitch: 50),
        EspeakVoice(name: "en-gb-scotland", variant: "f4", rate: 150, pitch: 55),
        EspeakVoice(name: "en-us", variant: "m1", rate: 175, pitch: 45),
        EspeakVoice(name: "en-us-nyc", variant: "f5", rate: 165, pitch: 60),
        EspeakVoice(name: "en-gb-x-gbclan", variant: "m4", rate: 150, pitch: 40),
        EspeakVoice(name: "en", variant: "f4", rate: 200, pitch: 55),
        EspeakVoice(name: "en-us", variant: "klatt3", rate: 160, pitch: 50),
        EspeakVoice(name: "en-gb-x-gbcwmd", variant: "m6", rate: 170, pitch: 45),
    ]

    /// `$XDG_CACHE_HOME/glasses-audio/wake` or `~/.cache/glasses-audio/wake`.
    public static var defaultCacheDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        return (base as NSString).appendingPathComponent("glasses-audio/wake")
    }

    /// Whether the model for `keyword` is already in the cache (preparing it is then quick).
    public func isCached(_ keyword: String) -> Bool {
        guard let cacheDirectory else { return false }
        let path = (cacheDirectory as NSString).appendingPathComponent(cacheFileName(for: WakePhrase.normalized(keyword)))
        return FileManager.default.fileExists(atPath: path)
    }

    /// Why a model prepared now could not be kept for the next run, or nil when it can: the
    /// cache folder is missing and cannot be made, or is not writable.
    public func cacheProblem() -> String? {
        guard let cacheDirectory else { return "no cache folder is set" }
        do {
            try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        } catch {
            return "the cache folder \(cacheDirectory) cannot be made"
        }
        guard access(cacheDirectory, W_OK) == 0 else {
            return "the cache folder \(cacheDirectory) is not writable (\(String(cString: strerror(errno))))"
        }
        return nil
    }

    /// The model for `keyword` from text alone: read from the cache, or synthesised and cached.
    public func model(for keyword: String) throws(WakeWordBuildError) -> WakeWordModel {
        let phrase = WakePhrase.normalized(keyword)
        guard !phrase.isEmpty else { throw .voice(.emptyKeyword) }
        let cachePath = cacheDirectory.map { ($0 as NSString).appendingPathComponent(cacheFileName(for: phrase)) }
        if let cachePath, let data = FileManager.default.contents(atPath: cachePath),
           var cached = try? JSONDecoder().decode(WakeWordModel.self, from: data) {
            cached.keyword = keyword
            return cached
        }
        var templates: [WakeWordTemplate] = []
        // The templates take seconds, the classifier minutes: a tenth of the way, then the rest.
        let templateShare = classifierTrainer == nil ? 1.0 : 0.1
        for (index, voice) in voices.enumerated() {
            if Task.isCancelled { throw .cancelled }
            WakePreparationProgress.step(index, of: Int((Double(voices.count) / templateShare).rounded()))
            let audio = try Self.utterance(phrase, voice: voice)
            do {
                templates.append(try WakeWordTemplate.extract(from: audio, source: "espeak \(voice)"))
            } catch {
                throw .voice(error)
            }
        }
        var model = WakeWordModel(keyword: keyword, templates: templates)
        if let classifierTrainer {
            model.classifier = try WakePreparationProgress.stage(templateShare...1) { () throws(WakeWordBuildError) in
                try classifierTrainer.train(model, phrase: phrase)
            }
            model.strictThreshold = WakeWordModel.classifierStrict
            model.lenientThreshold = WakeWordModel.classifierLenient
        }
        if let cachePath, let directory = cacheDirectory {
            // A cache that cannot be written only costs time next run; the model is still good.
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if let data = try? JSONEncoder().encode(model) {
                try? data.write(to: URL(fileURLWithPath: cachePath), options: .atomic)
            }
        }
        return model
    }

    /// `model` with one template per recording added: 16 kHz-convertible WAV or Ogg Opus files
    /// of the user saying the phrase once each, with a little silence around it.
    public func enrolled(_ model: WakeWordModel, recordings: [String]) throws(WakeWordBuildError) -> WakeWordModel {
        guard !recordings.isEmpty else { throw .enrollment("no recordings given") }
        var result = model
        for path in recordings {
            let audio: AudioBuffer
            do {
                audio = try AudioFileReader.read(path)
            } catch {
                throw .audioFile(error)
            }
            do {
                let padded = try Self.withContext(VoiceInput.prepare(audio))
                result.templates.append(try WakeWordTemplate.extract(from: padded, source: "enroll \(path)"))
            } catch {
                throw .voice(error)
            }
        }
        return result
    }

    /// The audio files (`.wav`, `.opus`, `.ogg`) in `directory`, sorted; 1 to 10 of them.
    public static func enrollmentRecordings(in directory: String) throws(WakeWordBuildError) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw .enrollment("cannot read directory \(directory)")
        }
        let files = names.filter { name in [".wav", ".opus", ".ogg"].contains { name.lowercased().hasSuffix($0) } }
            .sorted().map { (directory as NSString).appendingPathComponent($0) }
        guard !files.isEmpty else { throw .enrollment("\(directory) holds no .wav/.opus recordings") }
        guard files.count <= 10 else { throw .enrollment("\(directory) holds \(files.count) recordings; use 3 to 5") }
        return files
    }

    /// The phrase spoken by `voice` at 16 kHz mono, with quiet noise before and after it as a stream
    /// would have (the detector's normalisation looks back one second).
    public static func utterance(_ phrase: String, voice: EspeakVoice) throws(WakeWordBuildError) -> AudioBuffer {
        do {
            let speech = try EspeakSynthesizer.synthesize(phrase, voice: voice)
            let resampled = try Resampler.resample(speech, to: LogMelFeatureExtractor.sampleRate)
            return withContext(AudioBuffer(format: .voice, samples: resampled.samples))
        } catch let error as SpeechError {
            throw .speech(error)
        } catch {
            throw .voice(.unsupportedFormat("\(error)"))
        }
    }

    /// `buffer` (16 kHz mono) between 0.6 s and 0.3 s of deterministic noise at -60 dBFS.
    static func withContext(_ buffer: AudioBuffer) -> AudioBuffer {
        var state: UInt32 = 0x1234_5678
        func noise(_ count: Int) -> [Float] {
            (0..<count).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return (Float(state >> 8) / Float(1 << 24) - 0.5) * 0.0035
            }
        }
        let rate = LogMelFeatureExtractor.sampleRate
        let body = zip(buffer.samples, noise(buffer.samples.count)).map(+)
        return AudioBuffer(format: .voice, samples: noise(rate * 6 / 10) + body + noise(rate * 3 / 10))
    }

    func cacheFileName(for phrase: String) -> String {
        let trainer = classifierTrainer.map {
            "classifier \($0.positiveCount) \($0.sentences.count)x\($0.sentenceRepeats) \($0.confusableRepeats) \($0.hiddenUnits) \($0.epochs)"
        } ?? "dtw"
        let key = "\(Self.formatVersion)|\(phrase)|\(trainer)|" + voices.map(\.description).joined(separator: ";")
        let slug = phrase.map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40)
        return "\(String(slug))-\(String(key.hashValueStable, radix: 16)).json"
    }
}
