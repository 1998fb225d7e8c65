import Assistant
import AudioCore
import DeviceProfiles
import Foundation
import LocalAssistant
import Speech
import TestKit
import Testing

/// The offline backend on synthesised speech: what it hears, what it answers.
@Suite("Local assistant backend (pocketsphinx grammar)", .oneAtATime, .serialized)
struct LocalAssistantBackendTests {
    static let noon = Date(timeIntervalSince1970: 1_795_000_000)  // a fixed clock

    func utterance(_ text: String, voice: EspeakVoice = EspeakVoice()) throws -> Utterance {
        let speech = try EspeakSynthesizer.synthesize(text, voice: voice)
        let silence = [Float](repeating: 0, count: 4000)
        let audio = try Resampler.resample(speech, to: 16000)
        return Utterance(audio: AudioBuffer(format: audio.format, samples: silence + audio.samples + silence), wakeWord: "hey glasses")
    }

    func backend() throws -> LocalAssistantBackend {
        try LocalAssistantBackend(battery: { 64 }, now: { Self.noon })
    }

    @Test("each command of the grammar is heard and answered from what it asks", arguments: [
        ("what time is it", "It is "), ("what is the date", "Today is "), ("what is my battery", "Your glasses are at 64 percent."),
        ("what is your name", "I am Glasses. Say hey glasses to wake me."),
    ])
    func commands(phrase: String, answer: String) async throws {
        let b = try backend()
        let reply = try await b.respond(to: try utterance(phrase))
        #expect(reply.heard == phrase)
        #expect(reply.answer.hasPrefix(answer), "\(reply.answer)")
    }

    @Test("stop says nothing")
    func stop() async throws {
        let reply = try await backend().respond(to: try utterance("stop"))
        #expect(reply.heard == "stop")
        #expect(reply.answer.isEmpty)
    }

    @Test("other voices are heard too", arguments: ["m3", "f2", "klatt"])
    func otherVoices(variant: String) async throws {
        let reply = try await backend().respond(to: try utterance("what time is it", voice: EspeakVoice(name: "en-us", variant: variant)))
        #expect(reply.heard == "what time is it")
    }

    @Test("speech outside the grammar gets \"I didn't catch that\", not a canned answer",
          arguments: ["play some music by the beatles", "turn on the kitchen lights please", "what is the weather tomorrow", "set a timer for ten minutes"])
    func outsideGrammar(phrase: String) async throws {
        let b = try backend()
        let reply = try await b.respond(to: try utterance(phrase))
        #expect(reply.answer == "I didn't catch that.", "heard \(reply.heard)")
    }

    static let requestsOutsideGrammar = [
        "wake me up at seven", "answer the call", "turn on the kitchen lights please", "play some music by the beatles", "how old is the moon",
        "order a pizza for dinner", "send a photo to my sister", "open the garage door",
        "start the timer", "call my mother", "text my brother", "set an alarm", "skip this song",
        "pause the video", "turn it off", "hang up", "go to sleep", "lock the door", "take a picture", "record a video",
        "read my messages", "what is the weather tomorrow", "set a timer for ten minutes", "navigate home", "turn up the volume",
        "turn down the volume", "mute the microphone", "shut down", "close the app", "next track", "previous song",
        "show me the map", "find a restaurant", "remind me to buy milk", "who won the game", "tell me a joke", "how far is paris",
    ]

    @Test("at 16 kHz requests the grammar lacks, decoded one after another, are never taken for a command with an effect (the commands-alone decode named \"stop\" for \"take a picture\", the mixed decode having heard \"door\"); few are taken for any command")
    func widebandOutsideGrammarNeverEffectful() async throws {
        let b = try backend()
        var answered: [String] = []
        let voices = ["kal16", "slt", "awb"]
        for (index, voice) in voices.enumerated() {
            for phrase in Self.requestsOutsideGrammar {
                let capture = try fliteNarrowband(phrase, voice: voice, snr: 10, seed: UInt32(index * 100 + phrase.count), linkRate: 16000)
                let decision = try b.decide(capture)
                guard let command = decision.command else { continue }
                answered.append("\(voice): \(phrase) -> \(command)")
                #expect(!LocalAssistantBackend.effectful.contains(command), "\(voice): \(phrase) -> \(command) (heard: \(decision.heard))")
            }
        }
        // Measured: 2 of 111 taken for a command without an effect ("go to sleep" -> "who are you",
        // "who won the game" -> "what day is it"); before, also "hang up" -> "cancel" (awb).
        #expect(answered.count <= 5, "of \(voices.count * Self.requestsOutsideGrammar.count) answered: \(answered)")
    }

    /// A command as an 8 kHz voice link (CVSD) carries it, captured from `offset` samples on
    /// (where the endpointer cut it differs by a few ms from run to run) with `tail` of a quiet
    /// room after it.
    func narrowband(_ phrase: String, offset: Int, tail: Int) throws -> Utterance {
        let speech = try EspeakSynthesizer.synthesize(phrase, voice: EspeakVoice(name: "en-us"))
        let link = try Resampler.resample(try Resampler.resample(speech, to: 8000), to: 16000)
        var seed: UInt32 = 7
        let room = (0..<(offset + tail)).map { _ in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: seed)) / Float(Int32.max) * 0.001
        }
        let samples = Array(room.prefix(offset)) + link.samples.map { $0 * 0.7 } + Array(room.suffix(tail))
        return Utterance(audio: AudioBuffer(format: link.format, samples: samples), wakeWord: "hey glasses", linkRate: 8000)
    }

    @Test("over an 8 kHz link a command is understood or not caught, wherever the capture starts and however much quiet follows; rarely taken for another",
          arguments: ["what time is it", "what is the date", "what is your name", "what is my battery"])
    func narrowbandCommands(phrase: String) throws {
        let b = try backend()
        var understood = 0
        var other: [String] = []
        for offset in stride(from: 0, to: 160, by: 32) {
            for tail in [0, 1600, 3200] {
                let decision = try b.decide(try narrowband(phrase, offset: offset, tail: tail))
                guard let command = decision.command else { continue }
                if LocalAssistantBackend.sameCommand(command, phrase) { understood += 1 } else { other.append(command) }
            }
        }
        // Without the top 4 kHz, "time" and "day" are close: a rare confusion, not the rule. The
        // open decode's check turns some of these clean captures into "I didn't catch that"
        // (docs/voice.md, "Commands": about half of the in-grammar commands at 8 kHz).
        #expect(other.count <= 2, "of 15 captures, heard instead: \(other)")
        #expect(understood >= 1, "none of 15 captures understood")
    }

    @Test("over an 8 kHz link requests the grammar lacks get \"I didn't catch that\" (the forced choice alone named a command for each), never a command with an effect")
    func narrowbandOutsideGrammar() async throws {
        let b = try backend()
        let pocketsphinx = try LocalAssistantBackend(battery: { 64 }, now: { Self.noon }, decider: .pocketsphinx)
        let requests = ["turn on the kitchen lights please", "play some music by the beatles", "how old is the moon",
                        "order a pizza for dinner", "send a photo to my sister", "open the garage door"]
        var answered: [String] = []
        for phrase in requests {
            // One capture for both calls, so the decision and the reply are compared on the same
            // audio (synthesised twice, they disagreed once in a run with other suites; whether
            // the synthesis or the decoder differed was not found).
            let capture = try narrowband(phrase, offset: 0, tail: 1600)
            let decision = try b.decide(capture)
            // Pocketsphinx's forced choice names a command for each (the check is what refuses them);
            // the classifier, which decides on this link, runs it only for a command with an effect.
            let forced = try pocketsphinx.decide(capture)
            #expect(forced.candidate != nil, "the forced choice named no command: \(forced)")
            if let command = decision.command {
                answered.append("\(phrase) -> \(command) (open decode: \(decision.openDecode ?? "-"))")
                #expect(!LocalAssistantBackend.effectful.contains(command), "\(phrase) -> \(command)")
            }
            let reply = try await b.respond(to: capture)
            #expect(decision.command != nil || reply.answer == "I didn't catch that.", "\(reply)")
        }
        // About 95 % on held-out corpora (docs/voice.md, "Commands"): one of six may pass, and
        // two did in one full run of four ("play some music by the beatles" -> "who are you",
        // "order a pizza for dinner" -> "what is the date"), on the same audio that gave at most
        // one in the other three: the narrowband decode is not yet the same from run to run
        // (not root-caused). Never an effectful command is the firm rule (above).
        #expect(answered.count <= 2, "answered: \(answered)")
    }

    static let allPhrasings = ["what time is it", "what is the time", "what is the date", "what day is it", "what is the date today",
                               "what is my battery", "how much battery is left", "what is the battery", "what is your name", "who are you",
                               "stop", "cancel", "never mind"]

    @Test("over an 8 kHz link the grammar's phrasings are understood: 11 or more of the 13 in the default voice (the open decode's count of other words alone, on the model as shipped, refused 7, among them \"what is the date today\")")
    func narrowbandPhrasingsUnderstood() throws {
        let b = try backend()
        var understood: [String] = []
        var other: [String] = []
        for phrase in Self.allPhrasings {
            let decision = try b.decide(try narrowband(phrase, offset: 1600, tail: 3200))
            guard let command = decision.command else { continue }
            if LocalAssistantBackend.sameCommand(command, phrase) { understood.append(phrase) } else { other.append("\(phrase) -> \(command)") }
        }
        // "never mind" has an effect: it stands only when the open decode hears it too, which it
        // does not here (answered "I didn't catch that"; the margin alone understood it).
        #expect(understood.count >= 11, "understood only \(understood)")
        #expect(understood.contains("what is the date today"), "understood \(understood)")
        #expect(other.isEmpty, "taken for another: \(other)")
    }

    /// `phrase` said by flite's `voice` (the `flite` program) as a link at `linkRate` carries it, in seeded
    /// noise `snr` dB below the speech (white noise with a low-passed part, falling towards pink),
    /// with a little of it before and after.
    func fliteNarrowband(_ phrase: String, voice: String, snr: Float, seed: UInt32, linkRate: Int = 8000) throws -> Utterance {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flite-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let flite = Process()
        flite.executableURL = URL(fileURLWithPath: "/usr/bin/flite")
        flite.arguments = ["-voice", voice, "-t", phrase, "-o", file]
        try flite.run()
        flite.waitUntilExit()
        let speech = try Resampler.resample(try AudioFileReader.read(file), to: 16000)
        let samples = [Float](repeating: 0, count: 3200) + speech.samples + [Float](repeating: 0, count: 4800)
        var state = seed &* 2_654_435_761 | 1
        var low: Float = 0
        let noise = samples.map { _ -> Float in
            state = state &* 1_664_525 &+ 1_013_904_223
            let white = Float(Int32(bitPattern: state)) / Float(Int32.max)
            low = 0.9 * low + 0.1 * white
            return 0.5 * white + 2 * low
        }
        func power(_ x: ArraySlice<Float>) -> Float { x.reduce(0) { $0 + $1 * $1 } / Float(max(x.count, 1)) }
        let gain = (power(samples[3200..<(samples.count - 4800)]) / max(power(noise[...]), 1e-12) / pow(10, snr / 10)).squareRoot()
        let mixed = AudioBuffer(format: speech.format, samples: zip(samples, noise).map { 0.5 * ($0 + gain * $1) })
        let link = linkRate < 16000 ? try Resampler.resample(try Resampler.resample(mixed, to: linkRate), to: 16000) : mixed
        return Utterance(audio: link, wakeWord: "hey glasses", linkRate: linkRate)
    }

    @Test("over an 8 kHz link in noise, flite's voices' requests never get a command with an effect (the margin alone took \"how old is the moon\" for \"cancel\" in two of three voices); most commands understood")
    func narrowbandFliteVoicesInNoise() throws {
        let b = try backend()
        var understood = 0, heardAs: [String] = [], notCaught: [String] = [], refused = 0, answered: [String] = []
        let requests = ["turn on the kitchen lights please", "what is the weather like", "send a photo to my sister", "how old is the moon"]
        for (index, voice) in ["kal16", "slt", "awb"].enumerated() {
            for phrase in Self.allPhrasings {
                let decision = try b.decide(try fliteNarrowband(phrase, voice: voice, snr: 10, seed: UInt32(index * 100 + phrase.count)))
                if let command = decision.command, LocalAssistantBackend.sameCommand(command, phrase) { understood += 1 }
                else if let command = decision.command { heardAs.append("\(phrase) -> \(command) (\(voice))") }
                else { notCaught.append("\(phrase) (\(voice), margin \(decision.margin ?? .nan), open decode '\(decision.openDecode ?? "")')") }
            }
            for phrase in requests {
                let decision = try b.decide(try fliteNarrowband(phrase, voice: voice, snr: 10, seed: UInt32(index * 100 + phrase.count)))
                if let command = decision.command {
                    answered.append("\(phrase) -> \(command) (\(voice), margin \(decision.margin ?? .nan), open decode '\(decision.openDecode ?? "")')")
                    #expect(!LocalAssistantBackend.effectful.contains(command), "\(phrase) -> \(command) (\(voice), margin \(decision.margin ?? .nan), open decode '\(decision.openDecode ?? "")')")
                } else {
                    refused += 1
                }
            }
        }
        // Measured: 29 of 39 understood (33 before "stop", "cancel" and "never mind" needed the open
        // decode to hear them), none taken for another, 11 of 12 requests refused (9 before).
        #expect(understood >= 26, "understood \(understood) of 39; not caught: \(notCaught)")
        #expect(heardAs.count <= 2, "taken for another: \(heardAs)")
        #expect(refused >= 10, "answered: \(answered)")
    }

    @Test("over an 8 kHz link the same capture decodes the same, margin and all, whatever was decoded before it")
    func narrowbandDecodingHasNoMemory() throws {
        let b = try backend()
        for phrase in ["what is the date today", "order a pizza for dinner", "play some music by the beatles"] {
            let command = try narrowband(phrase, offset: 0, tail: 1600)
            let first = try b.decide(command)
            #expect(try b.decide(command) == first, "'\(phrase)' twice in a row")
            for other in ["turn on the kitchen lights please", "stop", "how much battery is left"] {
                _ = try b.decide(try narrowband(other, offset: 1600, tail: 3200))
                #expect(try b.decide(command) == first, "'\(phrase)' after '\(other)'")
            }
        }
    }

    @Test("the shipped narrowband transform is found and loaded")
    func shippedTransform() throws {
        let path = try #require(LocalAssistantBackend.shippedNarrowbandTransform, "models/pocketsphinx/\(LocalAssistantBackend.narrowbandTransformName) not found")
        #expect(try backend().narrowbandTransform == path)
        let missing = try LocalAssistantBackend(narrowbandTransform: "/nonexistent/transform.mllr")
        #expect(throws: LocalAssistantError.self) { try missing.decide(try narrowband("stop", offset: 0, tail: 1600)) }
    }

    /// The shipped request from `start` s to the end of its command.
    func shippedRequest(from start: Double) throws -> Utterance {
        let path = (ResourceLocator.find("samples") ?? "samples") + "/hey-glasses-what-time.wav"
        let sample = try Resampler.resample(try AudioFileReader.read(path), to: 16000)
        let samples = Array(sample.samples[Int(start * 16000)..<Int(2.96 * 16000)])
        return Utterance(audio: AudioBuffer(format: sample.format, samples: samples), wakeWord: "hey glasses")
    }

    @Test("the same command decodes the same, whatever was decoded before it")
    func decodingHasNoMemory() async throws {
        let b = try backend()
        let command = try shippedRequest(from: 2.16)
        let first = try await b.respond(to: command).heard
        for other in ["what is my battery", "turn on the kitchen lights please", "stop"] {
            _ = try await b.respond(to: try utterance(other))
            let again = try await b.respond(to: command).heard
            #expect(again == first, "after '\(other)'")
        }
    }

    @Test("the shipped request is heard wherever the capture starts, from the wake phrase's tail to the command's first sound")
    func captureStartDoesNotMatter() async throws {
        // samples/hey-glasses-what-time.wav: "glasses" fades out from 2.06 s, "what" starts
        // about 2.14 s; a wake engine dates the phrase's end anywhere in there.
        let b = try backend()
        var heard: [String] = []
        for start in stride(from: 2.10, through: 2.181, by: 0.02) { heard.append(try await b.respond(to: try shippedRequest(from: start)).heard) }
        #expect(heard.allSatisfy { $0 == "what time is it" }, "\(heard)")
    }

    @Test("silence gets \"I didn't catch that\"")
    func silence() async throws {
        let quiet = Utterance(audio: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [Float](repeating: 0, count: 16000)), wakeWord: "x")
        #expect(try await backend().respond(to: quiet).answer == "I didn't catch that.")
        let overTheLink = Utterance(audio: quiet.audio, wakeWord: "x", linkRate: 8000)
        let b = try backend()
        let decision = try b.decide(overTheLink)
        #expect(try await b.respond(to: overTheLink).answer == "I didn't catch that.", "\(decision)")
    }
}
