import Assistant
import AudioCore
import Foundation
@testable import LocalAssistant
import TestKit
import Testing

/// The command classifier deciding in the local assistant, on captured commands of the held-out
/// command corpus (Fixtures/README.md says which) and on plain probabilities.
@Suite("Local assistant: the command classifier", .oneAtATime, .serialized)
struct LocalAssistantClassifierTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    static let noon = Date(timeIntervalSince1970: 1_795_000_000)

    func capture(_ name: String) throws -> Utterance {
        let audio = try AudioFileReader.read(Self.fixtures + "/" + name)
        return Utterance(audio: audio, wakeWord: "hey glasses", linkRate: audio.format.sampleRate)
    }

    func backend(_ decider: LocalAssistantBackend.Decider = .shippedClassifier) throws -> LocalAssistantBackend {
        try LocalAssistantBackend(battery: { 64 }, now: { Self.noon }, decider: decider)
    }

    /// The shipped backend, an 8 kHz fixture and the backend's decision on it.
    func decidedOverTheLink(_ name: String) throws -> (LocalAssistantBackend, Utterance, LocalAssistantBackend.Decision) {
        let b = try backend()
        let utterance = try capture(name)
        #expect(utterance.linkRate == 8000)
        return (b, utterance, try b.decide(utterance))
    }

    @Test("the shipped classifier is found and decides by default")
    func shippedClassifierDecides() throws {
        #expect(try backend().commandClassifier != nil, "models/commands/command-classifier.json or openWakeWord's feature models (scripts/bootstrap) missing")
        #expect(try backend(.pocketsphinx).commandClassifier == nil)
    }

    @Test("over an 8 kHz link, held-out commands pocketsphinx missed are understood and answered", arguments: [
        ("test32-8k-how-much-battery-is-left.wav", "how much battery is left", "Your glasses are at 64 percent."),
        ("test32-8k-what-time-is-it.wav", "what time is it", "It is "),
    ])
    func heldOutNarrowbandCommands(file: String, phrase: String, answer: String) async throws {
        let utterance = try capture(file)
        #expect(utterance.linkRate == 8000)
        let before = try backend(.pocketsphinx).decide(utterance)
        #expect(before.command.map { LocalAssistantBackend.sameCommand($0, phrase) } != true, "pocketsphinx alone: \(before)")
        let b = try backend()
        let decision = try b.decide(utterance)
        #expect(decision.command.map { LocalAssistantBackend.sameCommand($0, phrase) } == true, "\(decision)")
        #expect((decision.probability ?? 0) >= 0.9, "\(decision)")
        let reply = try await b.respond(to: utterance)
        #expect(reply.answer.hasPrefix(answer), "\(reply)")
    }

    @Test("over an 8 kHz link a held-out \"stop\" the forced choice takes for \"who are you\" stands on the classifier (it was refused)")
    func heldOutStopStandsOnTheClassifier() async throws {
        let (b, utterance, decision) = try decidedOverTheLink("test32-8k-stop.wav")
        #expect(decision.classified == "stop", "\(decision)")
        #expect(decision.candidate.map { LocalAssistantBackend.sameCommand($0, "stop") } == false, "the forced choice's best: \(decision)")
        #expect(decision.command == "stop", "\(decision)")
        #expect(try await b.respond(to: utterance).answer == "", "stop ends the round trip without a word")
    }

    @Test("over an 8 kHz link, held-out babble with nobody near that the classifier takes for \"stop\" below its own least is refused: the forced choice names another command (the model before: p = 0.987, and it acted with \"stop\" standing alone)")
    func babbleTakenForStopIsRefused() async throws {
        let (b, utterance, decision) = try decidedOverTheLink("ns42-8k-babble.wav")
        #expect(decision.classified == "stop" && (decision.probability ?? 1) < LocalAssistantBackend.effectfulUnconfirmedLeast["stop"]!, "\(decision)")
        #expect((decision.speech ?? 0) >= LocalAssistantBackend.leastSpeech, "the VAD hears the talkers: \(decision)")
        #expect(decision.candidate.map { LocalAssistantBackend.sameCommand($0, "stop") } == false, "the forced choice's best: \(decision)")
        #expect(decision.command == nil, "\(decision)")
        #expect(try await b.respond(to: utterance).answer == "I didn't catch that.")
    }

    @Test("over an 8 kHz link a held-out request the grammar lacks is still refused")
    func heldOutNarrowbandRequestRefused() async throws {
        let b = try backend()
        let utterance = try capture("test32-8k-send-a-text-to-john.wav")
        let decision = try b.decide(utterance)
        #expect(decision.command == nil && decision.classified == nil, "\(decision)")
        #expect(try await b.respond(to: utterance).answer == "I didn't catch that.")
    }

    @Test("over an 8 kHz link, noise and hum with no one speaking never act (the model before took them for \"stop\", the forced choice agreeing, and \"who are you\"): the VAD hears no speech", arguments: [
        "ns42-8k-white-noise.wav", "ns42-8k-hum.wav",
    ])
    func noiseAndHumNeverAct(file: String) async throws {
        let (b, utterance, decision) = try decidedOverTheLink(file)
        #expect((decision.speech ?? 1) < LocalAssistantBackend.leastSpeech, "\(decision)")
        #expect(decision.command == nil, "\(decision)")
        #expect(try await b.respond(to: utterance).answer == "I didn't catch that.")
    }

    @Test("a request the classifier takes for a command with an effect (\"good morning\" for \"never mind\", p = 0.966, under its own least) gets \"I didn't catch that\": pocketsphinx's forced choice names another command")
    func effectfulNeedsTheForcedChoice() async throws {
        let b = try backend()
        let utterance = try capture("dev7-8k-good-morning.wav")
        let decision = try b.decide(utterance)
        let classified = try #require(decision.classified, "\(decision)")
        #expect(LocalAssistantBackend.effectful.contains(classified), "\(decision)")
        #expect((decision.probability ?? 0) > 0.95 && (decision.probability ?? 1) < LocalAssistantBackend.effectfulUnconfirmedLeast[classified]!, "\(decision)")
        #expect(decision.candidate.map { LocalAssistantBackend.sameCommand($0, classified) } == false, "\(decision)")
        #expect(decision.command == nil, "\(decision)")
        let reply = try await b.respond(to: utterance)
        #expect(reply.answer == "I didn't catch that.", "\(reply)")
    }

    static let classes = ["what time is it", "what is the time", "what is the date", "what day is it", "what is the date today",
                          "what is my battery", "how much battery is left", "what is the battery", "what is your name", "who are you",
                          "stop", "cancel", "never mind", "something else"]

    func verdict(_ probabilities: [String: Double], least: Double = 0.68) -> ClassifierVerdict {
        ClassifierVerdict(probabilities: Self.classes.map { probabilities[$0] ?? 0 }, classes: Self.classes, least: least,
                          commands: LocalAssistantBackend.Command.allCases.map { LocalAssistantBackend.commands[$0]! },
                          effectful: LocalAssistantBackend.effectful)
    }

    @Test("a command's phrasings are summed; it stands when it beats \"something else\" and reaches the least probability; one with an effect is only proposed")
    func verdicts() {
        let summed = verdict(["what time is it": 0.4, "what is the time": 0.35, "something else": 0.25])
        #expect(summed.outcome == .command("what time is it") && abs(summed.probability - 0.75) < 1e-12)
        #expect(verdict(["what time is it": 0.3, "what is the time": 0.3, "something else": 0.4]).outcome == .refused)
        #expect(verdict(["what is the date": 0.6, "something else": 0.4]).outcome == .refused, "below the least probability")
        #expect(verdict(["stop": 0.2, "never mind": 0.7, "something else": 0.1]).outcome == .effectful("never mind"))
        #expect(verdict(["something else": 1]).outcome == .refused)
    }

    @Test("a phrasing with an effect stands on the classifier at its own least probability, else is proposed; the shipped setting: stop and cancel at 0.68, never mind at 0.97")
    func effectfulLeast() {
        func verdict(_ probabilities: [String: Double], _ unconfirmedLeast: [String: Double]) -> ClassifierVerdict.Outcome {
            ClassifierVerdict(probabilities: Self.classes.map { probabilities[$0] ?? 0 }, classes: Self.classes, least: 0.68,
                              commands: LocalAssistantBackend.Command.allCases.map { LocalAssistantBackend.commands[$0]! },
                              effectful: LocalAssistantBackend.effectful, unconfirmedLeast: unconfirmedLeast).outcome
        }
        let own = ["stop": 0.68, "cancel": 0.68]
        #expect(verdict(["stop": 0.7, "cancel": 0.1, "something else": 0.2], own) == .command("stop"), "the command's summed probability 0.8")
        #expect(verdict(["cancel": 0.69, "something else": 0.31], own) == .command("cancel"))
        #expect(verdict(["never mind": 0.999, "something else": 0.001], own) == .effectful("never mind"))
        #expect(verdict(["cancel": 0.6, "something else": 0.4], own) == .refused, "below the model's least")
        #expect(verdict(["stop": 0.8, "something else": 0.2], ["stop": 0.9]) == .effectful("stop"), "below its own least: proposed for the forced choice")
        let shipped = LocalAssistantBackend.effectfulUnconfirmedLeast
        #expect(verdict(["stop": 0.7, "something else": 0.3], shipped) == .command("stop"))
        #expect(verdict(["never mind": 0.96, "something else": 0.04], shipped) == .effectful("never mind"), "\"good morning\" was 0.966")
        #expect(verdict(["never mind": 0.98, "something else": 0.02], shipped) == .command("never mind"))
    }
}
