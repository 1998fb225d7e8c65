import Foundation
import Synchronization
internal import CEspeak

/// The one place the Speech module talks to libespeak-ng.
///
/// libespeak-ng keeps its voice, parameters and output buffer in process-wide globals and is not
/// re-entrant, so every call goes through ``EspeakEngine/shared``, a `Mutex` that also holds the
/// library's initialisation state: one synthesis at a time in the whole process.
enum EspeakEngine {
    struct State {
        /// The output rate espeak_Initialize reported, or `nil` before the first use.
        var sampleRate: Int?
    }

    static let shared = Mutex(State())

    /// Collects the samples the synthesis callback hands over; lives only while the lock is held.
    final class Collector {
        var samples: [Int16] = []
    }

    /// Initialises the library on first use (synchronous output: espeak_Synth returns when done).
    static func initialize(_ state: inout State) throws(SpeechError) -> Int {
        if let rate = state.sampleRate { return rate }
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { throw .initializationFailed("espeak_Initialize returned \(rate) (is espeak-ng-data installed?)") }
        espeak_SetSynthCallback { samples, count, events in
            guard let samples, count > 0, let events, let context = events.pointee.user_data else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            collector.samples.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
            return 0
        }
        state.sampleRate = Int(rate)
        return Int(rate)
    }

    /// Checks an espeak_ERROR: the single place status codes become Swift errors.
    static func check(_ status: espeak_ERROR, _ attempted: @autoclosure () -> String) throws(SpeechError) {
        switch status {
        case EE_OK: return
        case EE_NOT_FOUND: throw .unknownVoice(attempted())
        case EE_BUFFER_FULL: throw .synthesisFailed("\(attempted()): buffer full")
        default: throw .synthesisFailed("\(attempted()): error \(status.rawValue)")
        }
    }

    /// Speaks `text` with `voice` and returns 16-bit samples at the library's rate.
    static func synthesize(_ text: String, voice: EspeakVoice) throws(SpeechError) -> (samples: [Int16], rate: Int) {
        try shared.withLock { state throws(SpeechError) in
            let rate = try initialize(&state)
            try check(espeak_SetVoiceByName(voice.identifier), voice.identifier)
            try check(espeak_SetParameter(espeakRATE, Int32(voice.rate), 0), "set rate \(voice.rate)")
            try check(espeak_SetParameter(espeakPITCH, Int32(voice.pitch), 0), "set pitch \(voice.pitch)")
            try check(espeak_SetParameter(espeakRANGE, Int32(voice.pitchRange), 0), "set range \(voice.pitchRange)")
            let collector = Collector()
            let context = Unmanaged.passUnretained(collector).toOpaque()
            var bytes = Array(text.utf8CString)
            let status = withExtendedLifetime(collector) {
                bytes.withUnsafeMutableBufferPointer { buffer in
                    espeak_Synth(
                        buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, context)
                }
            }
            try check(status, "speak \"\(text)\"")
            return (collector.samples, rate)
        }
    }

    /// Names of the installed variants (the files in espeak-ng-data/voices/!v).
    static func variantNames() throws(SpeechError) -> [String] {
        try shared.withLock { state throws(SpeechError) in
            _ = try initialize(&state)
            var spec = espeak_VOICE()
            return "variant".withCString { language in
                spec.languages = language
                guard let list = espeak_ListVoices(&spec) else { return [] }
                var names: [String] = []
                var index = 0
                while let voice = list[index] {
                    if let identifier = voice.pointee.identifier {
                        let path = String(cString: identifier)
                        names.append(path.hasPrefix("!v/") ? String(path.dropFirst(3)) : path)
                    }
                    index += 1
                }
                return names.sorted()
            }
        }
    }
}
