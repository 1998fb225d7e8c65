import AudioCore
import Testing
import TestKit

@Suite("Resampling through libsoxr", .oneAtATime)
struct ResamplerTests {
    static let rates = [8000, 16000, 22050, 44100, 48000]
    static let pairs = rates.flatMap { from in rates.filter { $0 != from }.map { (from, $0) } }

    @Test("a 1 kHz sine keeps its frequency (±1 %) and level (±0.5 dB)", arguments: pairs)
    func keepsFrequencyAndLevel(from: Int, to: Int) throws {
        let input = Signals.sine(frequency: 1000, rate: from, seconds: 0.5)
        let output = try Resampler.resample(input, to: to)
        #expect(output.format.sampleRate == to)
        #expect(abs(output.duration - input.duration) < 0.01)
        let frequency = Spectrum.peakFrequency(output)
        #expect(abs(frequency - 1000) < 10, "peak at \(frequency) Hz")
        let levelChange = Measure.middleLevel(output) - Measure.middleLevel(input)
        #expect(abs(levelChange) < 0.5, "level changed by \(levelChange) dB")
    }

    @Test("a 7 kHz tone disappears going to 8 kHz (above the new Nyquist)", arguments: [16000, 22050, 44100, 48000])
    func removesToneAboveNyquist(from: Int) throws {
        let input = Signals.sine(frequency: 7000, rate: from, seconds: 0.5)
        let output = try Resampler.resample(input, to: 8000)
        let attenuation = Measure.middleLevel(output) - Measure.middleLevel(input)
        #expect(attenuation < -60, "7 kHz only attenuated by \(attenuation) dB")
    }

    @Test("streaming in small chunks gives the same result as one call")
    func streamingMatchesOneShot() throws {
        let input = Signals.sine(frequency: 440, rate: 16000, seconds: 0.3)
        let whole = try Resampler.resample(input, to: 48000)
        let streaming = try Resampler(from: 16000, to: 48000, channels: 1)
        var pieces: [Float] = []
        for start in stride(from: 0, to: input.frameCount, by: 160) {
            pieces += try streaming.process(input.frames(start..<(start + 160)).samples)
        }
        pieces += try streaming.flush()
        #expect(pieces.count == whole.samples.count)
        let difference = zip(pieces, whole.samples).map { abs($0 - $1) }.max() ?? 0
        #expect(difference < 1e-4)
    }

    @Test("an unsupported rate is refused with its value")
    func refusesUnsupportedRate() {
        #expect(throws: ResamplerError.format(.unsupportedRate(12345))) {
            try Resampler(from: 12345, to: 16000, channels: 1)
        }
        let error = ResamplerError.format(.unsupportedRate(12345))
        #expect(error.description.contains("12345 Hz"))
    }
}
