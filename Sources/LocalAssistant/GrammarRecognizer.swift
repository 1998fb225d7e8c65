import CPocketSphinx
import Foundation

/// Recognises a small command grammar offline with pocketsphinx (Debian's
/// `libpocketsphinx-dev` + `pocketsphinx-en-us`): a JSGF grammar, 16 kHz 16-bit audio in,
/// the best matching phrase out, or `nil` when nothing in the grammar fits well enough.
final class GrammarRecognizer: @unchecked Sendable {
    private let decoder: OpaquePointer
    private let lock = NSLock()

    static let modelDirectory = "/usr/share/pocketsphinx/model/en-us"

    init(grammar: String) throws {
        let hmm = Self.modelDirectory + "/en-us"
        let dict = Self.modelDirectory + "/cmudict-en-us.dict"
        guard FileManager.default.fileExists(atPath: hmm), FileManager.default.fileExists(atPath: dict) else {
            throw LocalAssistantError("no pocketsphinx model at \(Self.modelDirectory) (install pocketsphinx-en-us)")
        }
        let arguments = ["-hmm", hmm, "-dict", dict, "-logfn", "/dev/null", "-bestpath", "yes"]
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let config = cStrings.withUnsafeMutableBufferPointer { buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
        }
        guard let config else { throw LocalAssistantError("pocketsphinx refused its configuration") }
        defer { _ = cmd_ln_free_r(config) }
        guard let decoder = ps_init(config) else { throw LocalAssistantError("pocketsphinx could not load \(hmm)") }
        guard ps_set_jsgf_string(decoder, "commands", grammar) == 0, ps_set_search(decoder, "commands") == 0 else {
            _ = ps_free(decoder)
            throw LocalAssistantError("pocketsphinx rejected the command grammar")
        }
        self.decoder = decoder
    }

    deinit { _ = ps_free(decoder) }

    /// The phrase heard, with its posterior probability (0...1).
    func recognize(_ samples: [Int16]) -> (text: String, confidence: Double)? {
        lock.withLock {
            guard ps_start_utt(decoder) == 0 else { return nil }
            _ = samples.withUnsafeBufferPointer { ps_process_raw(decoder, $0.baseAddress, $0.count, 0, 1) }
            _ = ps_end_utt(decoder)
            var score: Int32 = 0
            guard let hypothesis = ps_get_hyp(decoder, &score) else { return nil }
            let text = String(cString: hypothesis).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            let probability = ps_get_prob(decoder)
            let logmath = ps_get_logmath(decoder)
            let confidence = logmath.map { logmath_exp($0, probability) } ?? 0
            return (text, confidence)
        }
    }
}

/// Why the local assistant cannot run.
public struct LocalAssistantError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
