import AudioCore
import Speech
import Testing
import TestKit
@testable import Voice

/// VAD fed a piece at a time decides exactly as VAD over the whole buffer, at any piece size,
/// rate and channel count (issue 12, class 5: long files are read in chunks).
@Suite("Voice activity detection, streamed", .oneAtATime)
struct VADStreamTests {
    @Test("pieces of any size give the whole-buffer segments", arguments: [
        (16000, 1, 160), (16000, 1, 32768), (48000, 2, 1000), (44100, 1, 4410),
    ])
    func sameAsWhole(rate: Int, channels: Int, piece: Int) throws {
        let speech = try VoiceTestSignals.speech("the weather today is cloudy", voice: EspeakVoice(name: "en-us", variant: "m3"))
        let mono = VoiceTestSignals.buffer(VoiceTestSignals.silence(seconds: 1) + speech + VoiceTestSignals.silence(seconds: 1))
        var audio = try Resampler.resample(mono, to: rate)
        if channels == 2 {
            audio = AudioBuffer(format: PCMFormat(sampleRate: rate, channels: 2), samples: audio.samples.flatMap { [$0, $0] })
        }
        let whole = try VADAnalysis.segments(of: audio)
        let stream = try VADStream(inputFormat: audio.format)
        for start in stride(from: 0, to: audio.frameCount, by: piece) {
            try stream.add(audio.frames(start..<min(audio.frameCount, start + piece)))
        }
        #expect(!whole.isEmpty)
        #expect(try stream.finish() == whole)
    }

    @Test("a file read in chunks gives the same segments as the file read whole")
    func chunkedFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("speech.wav")
        let speech = try VoiceTestSignals.speech("hello, how are you", voice: EspeakVoice(name: "en-us"))
        let padded = VoiceTestSignals.silence(seconds: 0.5) + speech + VoiceTestSignals.silence(seconds: 0.5)
        try WAVFile.write(VoiceTestSignals.buffer(padded), to: path)
        let chunks = try AudioFileChunks(path: path, framesPerChunk: 777)
        let stream = try VADStream(inputFormat: chunks.format)
        var frames = 0
        while let chunk = try chunks.next() {
            frames += chunk.frameCount
            try stream.add(chunk)
        }
        let whole = try WAVFile.read(path)
        #expect(frames == whole.frameCount)
        #expect(try stream.finish() == VADAnalysis.segments(of: whole))
    }

    @Test("nothing added is empty audio, as for a whole buffer")
    func empty() throws {
        #expect(throws: VoiceError.emptyAudio) { try VADStream(inputFormat: .voice).finish() }
    }
}
