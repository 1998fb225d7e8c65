import AudioCore
import Foundation

// `make bench`: throughput of the audio core, as multiples of real time, median of several runs.

/// Seconds `body` takes, measured `runs` times; returns the median.
func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let elapsed = try clock.measure(body)
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return times.sorted()[runs / 2]
}

let seconds = 60.0
let runs = 7
let step = 2 * Double.pi * 440 / 16000
let speechLike = AudioBuffer(
    format: PCMFormat(sampleRate: 16000, channels: 1),
    samples: (0..<Int(seconds * 16000)).map { Float(0.3 * sin(step * Double($0)) * (0.6 + 0.4 * sin(Double($0) / 3000))) })

var rows: [(String, Double)] = []

let resampleTime = try median(runs: runs) {
    _ = try Resampler.resample(speechLike, to: 48000)
}
rows.append(("resample 16 kHz -> 48 kHz (libsoxr HQ, one call)", seconds / resampleTime))

let streamingTime = try median(runs: runs) {
    let resampler = try Resampler(from: 16000, to: 48000, channels: 1)
    for start in stride(from: 0, to: speechLike.frameCount, by: 320) {
        _ = try resampler.process(speechLike.frames(start..<(start + 320)).samples)
    }
    _ = try resampler.flush()
}
rows.append(("resample 16 kHz -> 48 kHz (streaming, 20 ms chunks)", seconds / streamingTime))

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glasses-audio-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let opusPath = directory.appendingPathComponent("bench.opus").path
let encodeTime = try median(runs: runs) {
    try OggOpusFile.write(speechLike, to: opusPath, bitrate: 24000)
}
rows.append(("Ogg Opus encode 16 kHz mono, 24 kbit/s (libopusenc)", seconds / encodeTime))

let decodeTime = try median(runs: runs) {
    _ = try OggOpusFile.read(opusPath, originalRate: false)
}
rows.append(("Ogg Opus decode to 48 kHz (libopusfile)", seconds / decodeTime))

let wavPath = directory.appendingPathComponent("bench.wav").path
let wavTime = try median(runs: runs) {
    try WAVFile.write(speechLike, to: wavPath)
    _ = try WAVFile.read(wavPath)
}
rows.append(("WAV s16 write + read", seconds / wavTime))

print("GlassesAudio audio-core benchmark: \(Int(seconds)) s of 16 kHz mono audio, median of \(runs) runs")
for (name, ratio) in rows {
    print(name.padding(toLength: 56, withPad: " ", startingAt: 0) + String(format: "%10.0f x real time", ratio))
}
