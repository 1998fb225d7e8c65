import AudioCore
import Foundation
import OpenWakeWord

/// `voice-eval command-features --corpus DIR --out FILE`: the neural wake engine's embeddings of
/// every file of a command corpus (scripts/make-command-corpus), for the command classifier
/// experiment (scripts/command-classifier-experiment). Each file is resampled to 16 kHz as the
/// local assistant does, followed by 0.5 s of silence (so its last word has whole embeddings),
/// and run through openWakeWord's feature models from a fresh stream.
/// FILE: one JSON line per corpus file, `{"file", "embeddings": [[96 floats]…]}`.
extension VoiceEval {
    static func dumpCommandFeatures(_ options: Options) {
        guard let directory = options.corpus, let out = options.out else { fail("command-features needs --corpus DIR and --out FILE") }
        let labels: [CommandLabel]
        do {
            let text = try String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8)
            labels = try text.split(separator: "\n").map { try JSONDecoder().decode(CommandLabel.self, from: Data($0.utf8)) }
        } catch {
            fail("cannot read \(directory)/labels.jsonl: \(error)")
        }
        var lines: [String] = []
        for label in labels {
            do {
                let audio = try AudioFileReader.read(directory + "/" + label.file)
                let wide = audio.format.sampleRate == 16000 ? audio : try Resampler.resample(audio, to: 16000)
                let features = try OpenWakeWordFeatures()
                let embeddings = features.processWhole(wide.samples + [Float](repeating: 0, count: 8000))
                let rows = embeddings.map { "[" + $0.values.map { String(format: "%.5g", $0) }.joined(separator: ",") + "]" }
                lines.append("{\"file\":\"\(label.file)\",\"embeddings\":[\(rows.joined(separator: ","))]}")
            } catch {
                fail("\(label.file): \(error)")
            }
        }
        do {
            try (lines.joined(separator: "\n") + "\n").write(toFile: out, atomically: true, encoding: .utf8)
        } catch {
            fail("cannot write \(out): \(error.localizedDescription)")
        }
        print("\(out): \(lines.count) files")
    }
}
