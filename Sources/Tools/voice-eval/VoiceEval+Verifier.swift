import Foundation
import OpenWakeWord
import VoiceTraining
import WakeRuntime

extension VoiceEval {
    /// `train-verifier`: a second-stage head for `--keyword`, written to `--out`.
    static func trainVerifier(_ options: Options) {
        guard let keyword = options.keywords.first, let out = options.out else { fail("train-verifier needs --keyword TEXT and --out FILE") }
        let start = ContinuousClock.now
        var trainer = WakeVerifierTrainer(seed: options.seed)
        let t = options.training
        if let value = t.positives { trainer.positiveCount = value }
        if let value = t.nearPhrases { trainer.nearPhraseCount = value }
        if let value = t.hidden { trainer.recipe.hiddenUnits = value }
        if let value = t.epochs { trainer.recipe.epochs = value }
        if let value = t.mining { trainer.recipe.miningEpochs = value }
        if let value = t.jobs { trainer.recipe.concurrency = max(1, value) }
        trainer.recipe.heldOutLanguages = Set(t.heldOut)
        trainer.recipe.heldOutFliteVoices = Set(t.heldOutFlite)
        do {
            let mel = try OpenWakeWordModels.load(OpenWakeWordModels.melspectrogramFile, in: OpenWakeWordModels.directory())
            let embedding = try OpenWakeWordModels.load(OpenWakeWordModels.embeddingFile, in: OpenWakeWordModels.directory())
            let weights = try trainer.train(phrase: keyword, progress: { line in
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }) { () throws(OpenWakeWordError) in
                try OpenWakeWordFeatures(melspectrogram: mel, embedding: embedding)
            }
            try weights.write(to: out, description: "glasses-audio wake verifier for \"\(keyword)\" (near-phrases, seed \(options.seed))")
            print("\(out) (\(ContinuousClock.now - start))")
        } catch {
            fail("\(error)")
        }
    }
}
