import Foundation
import AudioCore
import Voice

/// Debian's Festival voices (`festival` with `festvox-kdlpc16k`, `festvox-kallpc16k` and
/// `festvox-us-slt-hts`): two diphone voices and an HMM one, a third synthesiser beside
/// espeak-ng and flite, so a head hears more kinds of voice. Festival has no C interface (it is a
/// C++ program), so one `festival -b` batch speaks every take a training needs, at once (about 40
/// utterances a second; a process per utterance would spend most of its time starting).
/// Deterministic: the same text and stretch give the same samples.
struct FestivalVoices: Sendable {
    /// The English voices Debian packages, in a fixed order.
    static let names = ["ked_diphone", "kal_diphone", "cmu_us_slt_arctic_hts"]
    static let voiceFolders = ["/usr/share/festival/voices/english", "/usr/share/festival/voices/us"]

    /// One utterance to speak: `text` by `voice`, phone durations × `stretch`.
    struct Take: Hashable, Sendable {
        var voice: String
        var text: String
        var stretch: Float
    }

    /// The `festival` program on PATH, or nil.
    static var program: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/festival" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The voices of ``names`` installed here.
    static func installed() -> [String] {
        guard program != nil else { return [] }
        return names.filter { name in voiceFolders.contains { FileManager.default.fileExists(atPath: "\($0)/\(name)") } }
    }

    /// The samples of every take (16 kHz mono, silence trimmed); a take festival could not say
    /// is left out. Empty when festival is missing.
    static func speak(_ takes: [Take]) -> [Take: [Float]] {
        guard let program, !takes.isEmpty else { return [:] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("festival-\(getpid())-\(UInt64.random(in: 0 ... .max))").path
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return [:] }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/takes.scm"
        guard (try? batch(takes, folder: folder).write(toFile: script, atomically: true, encoding: .utf8)) != nil else { return [:] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-b", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [:] }
        process.waitUntilExit()
        var spoken: [Take: [Float]] = [:]
        for (index, take) in takes.enumerated() {
            guard let audio = try? WAVFile.read("\(folder)/\(index).wav"), let prepared = try? VoiceInput.prepare(audio) else { continue }
            let clean = SpeechAugmentation.trimmed(prepared.samples)
            if !clean.isEmpty { spoken[take] = clean }
        }
        return spoken
    }

    /// The Scheme batch: for each take, its voice and stretch, then the utterance saved as
    /// `<index>.wav` in `folder`.
    static func batch(_ takes: [Take], folder: String) -> String {
        var lines: [String] = []
        var voice: String?
        for (index, take) in takes.enumerated() {
            if take.voice != voice {
                lines.append("(voice_\(take.voice))")
                voice = take.voice
            }
            if take.voice.hasSuffix("_hts") {
                // HTS voices take their speed from the engine's "-r" (rate), not Duration_Stretch.
                lines.append("(set! hts_engine_params (append \(take.voice)::hts_engine_params (list (list \"-r\" \(1 / take.stretch)))))")
            } else {
                lines.append("(Parameter.set 'Duration_Stretch \(take.stretch))")
            }
            lines.append("(utt.save.wave (utt.synth (Utterance Text \"\(escaped(take.text))\")) \"\(folder)/\(index).wav\" 'riff)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as the inside of a Scheme string.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
