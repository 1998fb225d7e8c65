public import AudioCore
import Foundation
import Synchronization

/// espeak-ng, embedded (no external process), streaming 20 ms chunks as it synthesises.
public struct EspeakSpeech: SpeechSynthesizer {
    public init() {}

    public var name: String { "espeak" }

    public func voices() throws -> [String] { try EspeakEngine.voiceNames() }

    public func speak(_ text: String, settings: SpeechSettings) -> AsyncThrowingStream<AudioBuffer, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: AudioBuffer.self, throwing: (any Error).self)
        let cancelled = Atomic(false)
        continuation.onTermination = { _ in cancelled.store(true, ordering: .relaxed) }
        // espeak-ng blocks while it speaks: a thread of its own, never a cooperative one.
        let thread = Thread {
            do {
                try settings.validate()
                guard !text.allSatisfy(\.isWhitespace) else { throw SpeechError.invalidParameter("text is empty") }
                let voice = Self.voice(for: settings)
                try Self.checkVoice(voice.name)
                let rate = try EspeakEngine.outputRate()
                let format = PCMFormat(encoding: .s16le, sampleRate: rate, channels: 1)
                _ = try EspeakEngine.synthesize(text, voice: voice, volume: Int((settings.volume * 100).rounded())) { chunk in
                    continuation.yield(AudioBuffer(format: format, samples: chunk.map { Float($0) / 32768 }))
                    return !cancelled.load(ordering: .relaxed)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.start()
        return stream
    }

    /// Initialises espeak-ng, lists its installed voices (reading every voice file: seconds
    /// where files are slow to reach, as through a VM's shared folder) and speaks a word with
    /// `settings`' voice unheard (its dictionary loaded): what the first reply would otherwise do.
    public func prepare(for settings: SpeechSettings) throws -> String {
        try settings.validate()
        let voice = Self.voice(for: settings)
        let known = try Self.checkVoice(voice.name)
        let rate = try EspeakEngine.synthesize("ready", voice: voice, volume: 0) { _ in true }
        return "espeak-ng ready: voice \(voice.name) at \(rate) Hz, \(known) voices installed"
    }

    private static func voice(for settings: SpeechSettings) -> EspeakVoice {
        EspeakVoice(name: settings.voice ?? "en-us", rate: settings.rate, pitch: settings.pitch)
    }

    /// The installed voices and variants, listed once per process (checked on every reply).
    private static let installed = Mutex<(voices: [String], variants: Set<String>)?>(nil)
    /// How many times the installed voices were listed (once per process; twice after
    /// ``forgetInstalledVoices()``).
    static let voiceListings = Atomic(0)

    /// Forgets the listed voices (for tests: the next check lists them again).
    static func forgetInstalledVoices() { installed.withLock { $0 = nil } }

    /// Throws an error naming the known voices when `name` is not one of them; returns how
    /// many voices are installed.
    @discardableResult
    static func checkVoice(_ name: String) throws(SpeechError) -> Int {
        let listed = try installed.withLock { cache throws(SpeechError) in
            if let cache { return cache }
            let found = (voices: try EspeakEngine.voiceNames(), variants: Set(try EspeakEngine.variantNames()))
            voiceListings.add(1, ordering: .relaxed)
            cache = found
            return found
        }
        let known = listed.voices
        guard known.contains(name) || listed.variants.contains(name) else {
            let sample = known.prefix(40).joined(separator: ", ")
            throw .invalidParameter("espeak-ng has no voice '\(name)'; known voices (\(known.count)): \(sample)\(known.count > 40 ? ", …" : "")")
        }
        return known.count
    }
}
