import Foundation
import AudioCore
import CFlite
import Synchronization
import Voice

/// One of flite's built-in voices (libflite, Debian's `flite1-dev`): voices unlike espeak-ng's
/// (diphone and clustergen), so heads trained from text hear more than one synthesiser.
/// Deterministic for the same settings; the same samples as the `flite` program with `--setf`.
struct FliteVoice: Sendable, Hashable, CustomStringConvertible {
    /// The voices Debian's flite 2.2 has built in.
    static let names = ["kal", "kal16", "awb", "rms", "slt"]

    var name: String
    /// Phone durations × this (above 1: slower).
    var durationStretch: Float
    /// Mean pitch in Hz (nil: the voice's own).
    var meanPitch: Int?

    var description: String { "flite:\(name):stretch\(durationStretch)" + (meanPitch.map { ":f0 \($0)" } ?? "") }

    /// `text` spoken by this voice at 16 kHz, or nil when flite cannot say it.
    func synthesize(_ text: String) -> [Float]? {
        guard let speech = FliteLibrary.shared.synthesize(text, voice: self),
              let audio = try? VoiceInput.prepare(speech)
        else { return nil }
        return audio.samples
    }
}

/// libflite in this process: each voice registered once, where the `flite` program loaded its
/// voice for every utterance (about 30 ms each, most of a training's synthesis time). libflite is
/// not thread-safe, and a voice's settings are state: one lock around every synthesis (and
/// nothing else in the process may call rand() meanwhile: the trainer synthesises on one thread).
private final class FliteLibrary: Sendable {
    static let shared = FliteLibrary()

    private struct LoadedVoice {
        var voice: UnsafeMutablePointer<cst_voice>
        /// The voice's own `int_f0_target_mean`, restored after an utterance at another pitch.
        var ownMeanPitch: Float?
    }

    /// The voices registered so far, by name; holding it is holding libflite.
    private let voices = Mutex<[String: LoadedVoice]>([:])

    private init() {
        flite_init()
    }

    func synthesize(_ text: String, voice: FliteVoice) -> AudioBuffer? {
        voices.withLock { voices in
            guard let loaded = Self.load(voice.name, into: &voices), let features = loaded.voice.pointee.features else { return nil }
            feat_set_float(features, "duration_stretch", voice.durationStretch)
            if let meanPitch = voice.meanPitch {
                feat_set_float(features, "int_f0_target_mean", Float(meanPitch))
            } else if let own = loaded.ownMeanPitch {
                feat_set_float(features, "int_f0_target_mean", own)
            } else {
                _ = feat_remove(features, "int_f0_target_mean")
            }
            // The clustergen voices draw noise from the C library's rand(): each utterance starts
            // from the state a fresh process has (seed 1), as the `flite` program's did, and the
            // caller's rand() sequence (espeak-ng's Klatt voices) goes on untouched.
            var fliteRandomState = [CChar](repeating: 0, count: 128)
            let synthesized = fliteRandomState.withUnsafeMutableBufferPointer { state in
                let callers = initstate(1, state.baseAddress!, state.count)
                defer { if let callers { setstate(callers) } }
                return flite_text_to_wave(text, loaded.voice)
            }
            guard let wave = synthesized else { return nil }
            defer { delete_wave(wave) }
            let count = Int(wave.pointee.num_samples) * Int(max(1, wave.pointee.num_channels))
            guard count > 0, let samples = wave.pointee.samples else { return nil }
            let values = UnsafeBufferPointer(start: samples, count: count).map { Float($0) / 32768 }
            return AudioBuffer(
                format: PCMFormat(sampleRate: Int(wave.pointee.sample_rate), channels: Int(max(1, wave.pointee.num_channels))),
                samples: values)
        }
    }

    private static func load(_ name: String, into voices: inout [String: LoadedVoice]) -> LoadedVoice? {
        if let loaded = voices[name] { return loaded }
        let register: ((UnsafePointer<CChar>?) -> UnsafeMutablePointer<cst_voice>?)? = switch name {
        case "kal": register_cmu_us_kal
        case "kal16": register_cmu_us_kal16
        case "awb": register_cmu_us_awb
        case "rms": register_cmu_us_rms
        case "slt": register_cmu_us_slt
        default: nil
        }
        guard let voice = register?(nil), let features = voice.pointee.features else { return nil }
        let own = feat_present(features, "int_f0_target_mean") != 0 ? feat_float(features, "int_f0_target_mean") : nil
        let loaded = LoadedVoice(voice: voice, ownMeanPitch: own)
        voices[name] = loaded
        return loaded
    }
}
