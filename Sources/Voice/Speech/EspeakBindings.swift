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

    /// Takes the samples the synthesis callback hands over, chunk by chunk, as espeak-ng makes
    /// them; lives only while the lock is held.
    final class Collector {
        let onChunk: ([Int16]) -> Bool
        init(onChunk: @escaping ([Int16]) -> Bool) { self.onChunk = onChunk }
    }

    /// Initialises the library on first use (synchronous output: espeak_Synth returns when done).
    static func initialize(_ state: inout State) throws(SpeechError) -> Int {
        if let rate = state.sampleRate { return rate }
        // 20 ms buffers: the callback runs every 20 ms of speech made, so chunks stream out.
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 20, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { throw .initializationFailed("espeak_Initialize returned \(rate) (is espeak-ng-data installed?)") }
        espeak_SetSynthCallback { samples, count, events in
            guard let samples, count > 0, let events, let context = events.pointee.user_data else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            let keepGoing = collector.onChunk(Array(UnsafeBufferPointer(start: samples, count: Int(count))))
            return keepGoing ? 0 : 1  // 1 aborts the synthesis
        }
        state.sampleRate = Int(rate)
        return Int(rate)
    }

    /// Initialises the library if needed and selects `voice` (language and variant); returns the
    /// library's rate. The start of every call that speaks or reads text.
    static func select(_ voice: EspeakVoice, _ state: inout State) throws(SpeechError) -> Int {
        let rate = try initialize(&state)
        try check(espeak_SetVoiceByName(voice.identifier), voice.identifier)
        return rate
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

    /// Speaks `text` with `voice` and returns 16-bit samples at the library's rate; with
    /// `phonemeInput`, text inside `[[ ]]` is read as phoneme mnemonics.
    static func synthesize(_ text: String, voice: EspeakVoice, phonemeInput: Bool = false) throws(SpeechError) -> (samples: [Int16], rate: Int) {
        var samples: [Int16] = []
        let rate = try synthesize(text, voice: voice, phonemeInput: phonemeInput) { chunk in
            samples += chunk
            return true
        }
        return (samples, rate)
    }

    /// `text` as espeak-ng's phoneme mnemonics for `voice`'s language (what `espeak-ng -x`
    /// prints; clauses joined by spaces). Synthesising them inside `[[ ]]` speaks them.
    static func phonemes(_ text: String, voice: EspeakVoice) throws(SpeechError) -> String {
        try shared.withLock { state throws(SpeechError) in
            _ = try select(voice, &state)
            var clauses: [String] = []
            Array(text.utf8CString).withUnsafeBufferPointer { buffer in
                var cursor: UnsafeRawPointer? = UnsafeRawPointer(buffer.baseAddress!)
                while let start = cursor, clauses.count < 1000 {
                    guard let phonemes = espeak_TextToPhonemes(&cursor, espeakCHARS_UTF8, 0) else { break }
                    let clause = String(cString: phonemes).trimmingCharacters(in: .whitespaces)
                    if !clause.isEmpty { clauses.append(clause) }
                    if cursor == start { break }
                }
            }
            return clauses.joined(separator: " ")
        }
    }

    /// The library's output rate (initialising it if needed).
    static func outputRate() throws(SpeechError) -> Int {
        try shared.withLock { state throws(SpeechError) in try initialize(&state) }
    }

    /// Speaks `text`, handing each chunk (about 20 ms) to `onChunk` as it is made; `onChunk`
    /// returns `false` to stop. Returns the library's rate.
    static func synthesize(
        _ text: String, voice: EspeakVoice, volume: Int = 100, phonemeInput: Bool = false, onChunk: @escaping ([Int16]) -> Bool
    )
        throws(SpeechError) -> Int
    {
        try shared.withLock { state throws(SpeechError) in
            let rate = try select(voice, &state)
            try check(espeak_SetParameter(espeakRATE, Int32(voice.rate), 0), "set rate \(voice.rate)")
            try check(espeak_SetParameter(espeakPITCH, Int32(voice.pitch), 0), "set pitch \(voice.pitch)")
            try check(espeak_SetParameter(espeakRANGE, Int32(voice.pitchRange), 0), "set range \(voice.pitchRange)")
            try check(espeak_SetParameter(espeakVOLUME, Int32(volume), 0), "set volume \(volume)")
            let collector = Collector(onChunk: onChunk)
            let context = Unmanaged.passUnretained(collector).toOpaque()
            var bytes = Array(text.utf8CString)
            let status = withExtendedLifetime(collector) {
                bytes.withUnsafeMutableBufferPointer { buffer in
                    espeak_Synth(
                        buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0,
                        UInt32(espeakCHARS_UTF8) | (phonemeInput ? UInt32(espeakPHONEMES) : 0), nil, context)
                }
            }
            try check(status, "speak \"\(text)\"")
            return rate
        }
    }

    /// Names of the installed variants: the files in espeak-ng-data/voices/!v, read from the
    /// folder (espeak-ng's own listing of them reads every voice file, as each listing does).
    static func variantNames() throws(SpeechError) -> [String] {
        let folder: String = try shared.withLock { state throws(SpeechError) in
            _ = try initialize(&state)
            var data: UnsafePointer<CChar>?
            _ = espeak_Info(&data)
            guard let data else { throw .initializationFailed("espeak-ng does not say where its data is") }
            return String(cString: data) + "/voices/!v"
        }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw .initializationFailed("cannot list espeak-ng's variants in \(folder): \(error)")
        }
    }

    /// Names of the installed voices (`en-us`, `en-gb-scotland`, …). Each call reads every
    /// voice file (espeak-ng keeps no listing between calls); the first also spares the first
    /// voice selection its own listing.
    static func voiceNames() throws(SpeechError) -> [String] {
        try shared.withLock { state throws(SpeechError) in
            _ = try initialize(&state)
            guard let list = espeak_ListVoices(nil) else { return [] }
            var names: [String] = []
            var index = 0
            while let voice = list[index] {
                if let name = voice.pointee.languages.map({ String(cString: $0.advanced(by: 1)) }), !name.isEmpty {
                    names.append(name)
                }
                index += 1
            }
            return Array(Set(names)).sorted()
        }
    }
}
