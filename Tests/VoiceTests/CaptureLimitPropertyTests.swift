import AudioCore
import Foundation
import Speech
import TestKit
import Testing
import Voice
import WakeRuntime  // SeededGenerator: every seed gives the same audio and wakes

/// Whatever the mic hears, a command capture ends by its limits: the no-speech timeout when no
/// command starts, the command limit when one does, counted from the wake that opened it. The
/// mic audio and the wake engine's firings are random (seeded): speech-like sounds, babble,
/// hum, noise, silence and a looping clip, fed in chunks of random size.
@Suite("Command capture limits, over random mic audio", .oneAtATime)
struct CaptureLimitPropertyTests {
    static let endpointer = EndpointerConfiguration()
    /// How late an end may be reported: the chunk it completed in (at most 0.2 s) and a frame.
    static let slack = 0.25

    @Test("no capture outlives its limits, and every wake after one ends opens the next", arguments: 0..<8)
    func noCaptureExceedsTheLimit(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed &* 7919 &+ 1)
        let seconds = 40.0
        let mic = MicAudio.random(seconds: seconds, using: &random)
        let wake = RandomWake(seed: random.next(), meanInterval: Double.random(in: 1...6, using: &random),
                              periodic: Bool.random(using: &random) ? Double.random(in: 2...5, using: &random) : nil)
        let pipeline = try VoicePipeline(scorer: wake, endpointer: Self.endpointer)

        var open: WakeWordDetection?
        var ends: [String] = []
        var offset = 0
        while offset < mic.count {
            let count = min(mic.count - offset, Int.random(in: 1...3200, using: &random))
            let events = pipeline.process(mic[offset..<offset + count])
            offset += count
            try check(events, open: &open, ends: &ends, at: pipeline.now.seconds)
        }
        try check(pipeline.finish(), open: &open, ends: &ends, at: pipeline.now.seconds)
        #expect(open == nil)
        #expect(wake.fired > 0)
        #expect(!ends.isEmpty, "seed \(seed): \(wake.fired) wakes and no capture ended in \(seconds) s")
    }

    /// Follows which wake opened the capture; every end must belong to it and come in time.
    func check(_ events: [VoiceEvent], open: inout WakeWordDetection?, ends: inout [String], at now: Double) throws {
        let limit = (Self.endpointer.noSpeechTimeout + Self.endpointer.maximum).inSeconds
        for event in events {
            switch event {
            case .wake(let detection):
                if open == nil { open = detection }
            case .command(let wake, let segment):
                #expect(wake == open, "a command reported for another wake than the one that opened it")
                #expect(segment.end.seconds - segment.start.seconds <= Self.endpointer.maximum.inSeconds + 0.011, "a \(segment.end.seconds - segment.start.seconds) s command")
                #expect(segment.start.seconds >= wake.time.seconds - 1e-9)
                #expect(segment.end.seconds <= wake.time.seconds + limit + 0.011)
                ends.append(segment.reason.rawValue)
                open = nil
            case .noCommand(let wake):
                #expect(wake == open, "no command reported for another wake than the one that opened it")
                #expect(now <= wake.time.seconds + Self.endpointer.noSpeechTimeout.inSeconds + Self.slack)
                ends.append("noSpeech")
                open = nil
            case .speechStarted, .speechEnded, .commandStarted:
                break
            }
        }
        if let open {
            try #require(now <= open.time.seconds + limit + Self.slack, "a capture opened at \(open.time.seconds) s still open at \(now) s")
        }
    }

    @Test("the random mic exercises every way a capture ends: silence, the command limit and no speech")
    func everyEndIsExercised() throws {
        var reasons: Set<String> = []
        for seed in 0..<6 as Range<UInt64> {
            var random = SeededGenerator(seed: seed &* 7919 &+ 1)
            let mic = MicAudio.random(seconds: 40, using: &random)
            let wake = RandomWake(seed: random.next(), meanInterval: 4, periodic: nil)
            let pipeline = try VoicePipeline(scorer: wake, endpointer: Self.endpointer)
            for event in pipeline.process(mic) + pipeline.finish() {
                if case .command(_, let segment) = event { reasons.insert(segment.reason.rawValue) }
                if case .noCommand = event { reasons.insert("noSpeech") }
            }
        }
        #expect(reasons.isSuperset(of: ["silence", "maximumLength", "noSpeech"]), "\(reasons)")
    }
}


/// A wake engine that fires at random frames (on average every `meanInterval` s), or every
/// `periodic` s as a looping mic's phrase would, whatever it hears.
final class RandomWake: WakeWordScorer {
    private var random: SeededGenerator
    private let chance: Double
    private let periodFrames: Int?
    private var frames = 0
    private(set) var fired = 0

    init(seed: UInt64, meanInterval: Double, periodic: Double?) {
        random = SeededGenerator(seed: seed)
        chance = 0.01 / meanInterval
        periodFrames = periodic.map { Int($0 * 100) }
    }

    func process(samples: ArraySlice<Float>, logMel: [Float]) -> [WakeWordDetection] {
        frames += 1
        let fires = periodFrames.map { frames % $0 == 0 } ?? (Double.random(in: 0..<1, using: &random) < chance)
        guard fires else { return [] }
        fired += 1
        let time = SampleTime(frame: Int64(frames * 160), sampleRate: 16000)
        let start = SampleTime(frame: max(0, time.frame - 12800), sampleRate: 16000)
        return [WakeWordDetection(keyword: "hey glasses", time: time, start: start, score: 0.99, matchScore: 0.99)]
    }

    func finish(samples: ArraySlice<Float>) -> [WakeWordDetection] { [] }
}

/// Random mic audio at 16 kHz: stretches of silence, noise, hum, a voice-like buzz (a pitch
/// with harmonics, syllable-rate amplitude), babble (several at once), and a clip repeated.
enum MicAudio {
    static let rate = 16000.0

    static func random(seconds: Double, using random: inout SeededGenerator) -> [Float] {
        var out: [Float] = []
        let total = Int(seconds * rate)
        while out.count < total {
            let length = Int(Double.random(in: 0.2...6, using: &random) * rate)
            let level = Float.random(in: 0.002...0.3, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: out += [Float](repeating: 0, count: length)
            case 1: out += noise(length, level: level, using: &random)
            case 2: out += hum(length, level: level, using: &random)
            case 3: out += voice(length, level: level, using: &random)
            case 4: out += babble(length, level: level, using: &random)
            default:
                let clip = babble(Int(Double.random(in: 1...4, using: &random) * rate), level: level, using: &random)
                for _ in 0..<Int.random(in: 2...6, using: &random) { out += clip }
            }
        }
        return Array(out.prefix(total))
    }

    static func noise(_ count: Int, level: Float, using random: inout SeededGenerator) -> [Float] {
        (0..<count).map { _ in Float.random(in: -1...1, using: &random) * level * 1.7 }
    }

    static func hum(_ count: Int, level: Float, using random: inout SeededGenerator) -> [Float] {
        let base = Bool.random(using: &random) ? 50.0 : 60.0
        return (0..<count).map { i in
            let t = Double(i) / rate
            return level * Float(sin(2 * .pi * base * t) + 0.5 * sin(2 * .pi * 3 * base * t))
        }
    }

    static func voice(_ count: Int, level: Float, using random: inout SeededGenerator) -> [Float] {
        let pitch = Double.random(in: 90...250, using: &random)
        let syllables = Double.random(in: 3...6, using: &random)
        let phase = Double.random(in: 0...1, using: &random)
        return (0..<count).map { i in
            let t = Double(i) / rate
            let glide = pitch * (1 + 0.1 * sin(2 * .pi * 0.7 * t))
            var v = 0.0
            for harmonic in 1...8 { v += sin(2 * .pi * glide * Double(harmonic) * t) / Double(harmonic) }
            let envelope = max(0, sin(2 * .pi * syllables * t + phase * 2 * .pi))
            return level * Float(v * envelope * 0.5)
        }
    }

    static func babble(_ count: Int, level: Float, using random: inout SeededGenerator) -> [Float] {
        var sum = [Float](repeating: 0, count: count)
        let talkers = Int.random(in: 3...6, using: &random)
        for _ in 0..<talkers {
            let one = voice(count, level: level / Float(talkers).squareRoot(), using: &random)
            for i in 0..<count { sum[i] += one[i] }
        }
        return sum
    }
}
