import CPocketSphinx
import Foundation
import Synchronization

/// Recognises speech offline with pocketsphinx (Debian's `libpocketsphinx-dev` +
/// `pocketsphinx-en-us`) against JSGF grammars: 16 kHz 16-bit audio in, the best path's words
/// out. One decoder holds every grammar as a named search: one acoustic model in memory (a
/// second decoder costs about 26 MB; the local assistant makes one more, adapted to
/// narrowband links, only when a narrowband utterance arrives).
final class GrammarRecognizer: Sendable {
    /// The decoder, one utterance at a time.
    private let decoder: Mutex<OpaquePointer>
    /// Where each utterance's noise estimate starts (see ``hypothesis(_:in:)``).
    private let streams: StreamStart

    /// Where an utterance's noise estimate starts.
    enum StreamStart {
        /// Where the utterance before left it: the same audio may decode differently after another.
        case carried
        /// A new stream: the estimate starts from the utterance's own first frames, so the same
        /// audio always decodes the same.
        case fresh
    }

    static let modelDirectory = "/usr/share/pocketsphinx/model/en-us"

    /// A grammar to search, by name.
    struct Grammar {
        var search: Search
        var jsgf: String
        /// The grammar is a closed set whose best match is always wanted. At the default
        /// beams, every path that reaches the grammar's end is pruned on some narrowband
        /// (8 kHz) utterances, so nothing is heard; much wider beams keep them (cheap on a few
        /// phrases). An open grammar (a run of other words) keeps the default: wide beams there
        /// let filler words win over a clean command, and the default ones reject other speech.
        var forcedChoice = false
    }

    /// The beams a forced-choice search is made with.
    static let wideBeams: [(name: String, value: Double)] = [("-beam", 1e-80), ("-wbeam", 1e-60), ("-pbeam", 1e-80)]

    /// `transform`: an MLLR transform of the model's means (pocketsphinx's `-mllr`), applied to
    /// every search of this decoder. `streams`: where each utterance's noise estimate starts (see
    /// ``hypothesis(_:in:)``).
    init(_ grammars: [Grammar], transform: String? = nil, streams: StreamStart) throws {
        self.decoder = Mutex(try Self.makeDecoder(grammars, transform: transform))
        self.streams = streams
    }

    /// A decoder with every grammar as a named search.
    private static func makeDecoder(_ grammars: [Grammar], transform: String?) throws -> sending OpaquePointer {
        let hmm = Self.modelDirectory + "/en-us"
        let dict = Self.modelDirectory + "/cmudict-en-us.dict"
        guard FileManager.default.fileExists(atPath: hmm), FileManager.default.fileExists(atPath: dict) else {
            throw LocalAssistantError("no pocketsphinx model at \(Self.modelDirectory) (install pocketsphinx-en-us)")
        }
        // Only the grammars' words: the decoder keeps its whole dictionary in memory.
        let words = try GrammarDictionary.write(from: dict, for: grammars.map(\.jsgf))
        defer { try? FileManager.default.removeItem(atPath: words) }
        // No dither of pocketsphinx's own: its generator is seeded once per decoder and runs on
        // across utterances, so the same audio decoded twice (or after another utterance, or
        // in another search) heard different words. `recognize` dithers each utterance alike.
        var arguments = ["-hmm", hmm, "-dict", words, "-logfn", "/dev/null", "-dither", "no"]
        if let transform {
            guard FileManager.default.isReadableFile(atPath: transform) else {
                throw LocalAssistantError("no MLLR transform at \(transform) (scripts/adapt-narrowband-mllr makes one)")
            }
            arguments += ["-mllr", transform]
        }
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let config = cStrings.withUnsafeMutableBufferPointer { buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
        }
        guard let config else { throw LocalAssistantError("pocketsphinx refused its configuration") }
        defer { _ = cmd_ln_free_r(config) }
        guard let decoder = ps_init(config) else { throw LocalAssistantError("pocketsphinx could not load \(hmm)") }
        // A search takes its beams from the decoder's configuration as it is made.
        let live = ps_get_config(decoder)
        let defaults = Self.wideBeams.map { (name: $0.name, value: cmd_ln_float_r(live, $0.name)) }
        for grammar in grammars {
            for beam in grammar.forcedChoice ? Self.wideBeams : defaults { cmd_ln_set_float_r(live, beam.name, beam.value) }
            guard ps_set_jsgf_string(decoder, grammar.search.rawValue, grammar.jsgf) == 0 else {
                _ = ps_free(decoder)
                throw LocalAssistantError("pocketsphinx rejected the \(grammar.search.rawValue) grammar")
            }
        }
        for beam in defaults { cmd_ln_set_float_r(live, beam.name, beam.value) }
        return decoder
    }

    enum Search: String {
        /// The commands, or a run of everyday words.
        case commandsOrOther
        /// The commands alone, at the default beams.
        case commands
        /// The commands alone, at wide beams (narrowband links).
        case narrowbandCommands
        /// The commands or a run of everyday words, at wide beams (narrowband links: the open
        /// decode a forced choice is checked against).
        case narrowbandCommandsOrOther
        /// A run of everyday words alone, at wide beams (narrowband links: other speech's score).
        case narrowbandEveryday
    }

    deinit { _ = decoder.withLock { ps_free($0) } }

    /// What one search heard: its words, its best path's score (pocketsphinx's log base 1.0001,
    /// language weight included) and the frames searched (10 ms each, silence removed).
    struct Hypothesis: Equatable {
        var text: String
        var score: Int32
        var frames: Int

        /// The path's score per frame searched: comparable across utterances of any length.
        var scorePerFrame: Double { Double(score) / Double(max(frames, 1)) }
    }

    /// What one search heard, or `nil` for nothing.
    func recognize(_ samples: [Int16], in search: Search) -> String? { hypothesis(samples, in: search)?.text }

    /// What one search heard, with its score, or `nil` for nothing. Pocketsphinx's noise estimate
    /// (spectral subtraction and its silence detector) carries over from one utterance to the
    /// next within a stream, so the same audio scored differently (now and then was heard as
    /// other words) after another; `fresh` starts a new stream per utterance. (The wideband
    /// decoder keeps `carried`: started afresh, the shipped request cut at the command's first
    /// sound took that word for noise and was heard as other words, and passed through once
    /// first to start the estimate from its own tail, the simulated glasses' round trip heard
    /// "off tell" for "what time is it".)
    func hypothesis(_ samples: [Int16], in search: Search) -> Hypothesis? {
        decode(samples, in: search, ranking: nil).best
    }

    /// The phrases one search's paths end in, best first: the best path's words, then
    /// pocketsphinx's N-best list (an A* search of the utterance's lattice) read for different
    /// word strings among `phrases` (the lattice also holds paths cut short, "who are"), at most
    /// `limit` of them (`[]`: nothing heard). Of a forced choice: the commands in the order the
    /// decoder ranks them.
    func ranked(_ samples: [Int16], in search: Search, among phrases: Set<String>, limit: Int) -> [String] {
        decode(samples, in: search, ranking: (phrases, limit)).ranked
    }

    /// The most N-best paths ``ranked(_:in:among:limit:)`` reads: a lattice holds many paths with the
    /// same words (other segmentations, silences).
    static let nbestPathLimit = 200

    /// Decodes one utterance in one search: the best path, and the phrases of ``ranked(_:in:among:limit:)``
    /// (none read when `ranking` is `nil`).
    private func decode(_ samples: [Int16], in search: Search, ranking: (phrases: Set<String>, limit: Int)?) -> (best: Hypothesis?, ranked: [String]) {
        decoder.withLock { decoder in
            let dithered = Self.dither(samples)
            guard ps_set_search(decoder, search.rawValue) == 0 else { return (nil, []) }
            if streams == .fresh {
                // Pocketsphinx's acoustic scoring also carries state from frame to frame (the
                // best codewords of the frame before); a fixed stretch of silence first sets it
                // alike for every utterance.
                guard ps_start_stream(decoder) == 0, ps_start_utt(decoder) == 0 else { return (nil, []) }
                _ = Self.primer.withUnsafeBufferPointer { ps_process_raw(decoder, $0.baseAddress, $0.count, 0, 1) }
                _ = ps_end_utt(decoder)
                guard ps_start_stream(decoder) == 0 else { return (nil, []) }
            }
            guard ps_start_utt(decoder) == 0 else { return (nil, []) }
            _ = dithered.withUnsafeBufferPointer { ps_process_raw(decoder, $0.baseAddress, $0.count, 0, 1) }
            _ = ps_end_utt(decoder)
            var score: Int32 = 0
            guard let hypothesis = ps_get_hyp(decoder, &score) else { return (nil, []) }
            let text = String(cString: hypothesis).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return (nil, []) }
            let best = Hypothesis(text: text, score: score, frames: Int(ps_get_n_frames(decoder)))
            var texts = [text]
            guard let ranking else { return (best, []) }
            var paths = ps_nbest(decoder)
            var read = 0
            while let path = paths, texts.count < ranking.limit, read < Self.nbestPathLimit {
                read += 1
                if let words = ps_nbest_hyp(path, &score).map({ String(cString: $0).trimmingCharacters(in: .whitespaces) }),
                   ranking.phrases.contains(words), !texts.contains(words) {
                    texts.append(words)
                }
                paths = ps_nbest_next(path)
            }
            if let paths { ps_nbest_free(paths) }
            return (best, texts)
        }
    }
}

extension GrammarRecognizer {
    /// 0.3 s of dithered digital silence, decoded before each utterance of a `fresh` decoder.
    static let primer = dither([Int16](repeating: 0, count: 4800))

    /// ±1 LSB of noise from a generator started afresh for each utterance, so that digital
    /// silence has a finite log energy and the same audio always decodes the same.
    static func dither(_ samples: [Int16]) -> [Int16] {
        var state: UInt32 = 0x2545_F491
        return samples.map { sample in
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = Int32(state >> 30) - 1  // -1, 0, 1 or 2
            return Int16(clamping: Int32(sample) + min(noise, 1))
        }
    }
}

/// Why the local assistant cannot run.
public struct LocalAssistantError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
