import AudioCore
import Testing
import TestKit

@Suite("Levels, channel mixdown, sample clock", .oneAtATime)
struct LevelAndMixTests {
    @Test("a full-scale sine is -3.01 dBFS RMS and 0 dBFS peak")
    func sineLevel() {
        let level = AudioLevel(measuring: Signals.sine(frequency: 1000, rate: 48000, seconds: 1, amplitude: 1).samples)
        #expect(abs(level.rmsDBFS + 3.01) < 0.01)
        #expect(abs(level.peakDBFS) < 0.01)
    }

    @Test("silence reports the floor, not -infinity")
    func silenceLevel() {
        let level = AudioLevel(measuring: [Float](repeating: 0, count: 100))
        #expect(level.rmsDBFS == AudioLevel.floor)
        #expect(level.peakDBFS == AudioLevel.floor)
    }

    @Test("the meter holds the highest peak until reset")
    func meterHoldsPeak() {
        var meter = LevelMeter()
        meter.measure(Signals.sine(frequency: 100, rate: 16000, seconds: 0.1, amplitude: 0.5))
        meter.measure(Signals.sine(frequency: 100, rate: 16000, seconds: 0.1, amplitude: 0.05))
        #expect(abs(meter.heldPeakDBFS - 20 * log10(0.5)) < 0.1)
        #expect(meter.current.peakDBFS < -25)
        meter.resetPeak()
        #expect(meter.heldPeakDBFS == AudioLevel.floor)
    }

    @Test("stereo mixes down to the mean; mono copies up")
    func mixdown() {
        let stereo = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 2), samples: [1, 0, 0.5, 0.5, -1, 1])
        #expect(ChannelMixer.mixdownToMono(stereo).samples == [0.5, 0.5, 0])
        let mono = AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: [0.25, -0.5])
        #expect(ChannelMixer.convert(mono, toChannels: 2).samples == [0.25, 0.25, -0.5, -0.5])
    }

    @Test("the sample clock stamps consecutive frames without gaps")
    func sampleClock() {
        var clock = SampleClock(sampleRate: 16000)
        let first = clock.stamp(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: .init(repeating: 0, count: 160)))
        let second = clock.stamp(AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: .init(repeating: 0, count: 320)))
        #expect(first.start.frame == 0)
        #expect(second.start == first.end)
        #expect(second.end.frame == 480)
        #expect(abs(second.end.seconds - 0.03) < 1e-12)
    }
}

import Foundation
