import Foundation
public import AudioCore

/// Streaming 40-band log-mel energies of 16 kHz mono audio: 25 ms Hann windows every 10 ms.
///
/// Feed any number of samples; every complete hop yields one frame. Frame `n` covers samples
/// `n*hop ..< n*hop + window`. Pure computation: no I/O, no threads (not `Sendable`: one owner).
public final class LogMelFeatureExtractor {
    public static let sampleRate = 16000
    /// Samples between frames (10 ms).
    public static let hop = 160
    /// Samples in a frame's window (25 ms).
    public static let window = 400
    public static let fftSize = 512
    /// Frames per second.
    public static let frameRate = 100.0

    public let bandCount: Int
    private let spectrum: Spectrum
    private let hann: [Float]
    private let filterbank: MelFilterbank
    private var pending: [Float] = []
    /// Frames produced so far.
    public private(set) var frameCount = 0

    public init(bandCount: Int = 40) {
        self.bandCount = bandCount
        spectrum = Spectrum(size: Self.fftSize)
        hann = Spectrum.hann(Self.window)
        filterbank = MelFilterbank(
            bandCount: bandCount, fftSize: Self.fftSize, sampleRate: Self.sampleRate, lowFrequency: 60,
            highFrequency: 7600)
        pending.reserveCapacity(Self.window * 4)
    }

    /// Appends samples and returns the log-mel frames (natural log of band power) they complete.
    public func process(_ samples: some Collection<Float>) -> [[Float]] {
        pending.append(contentsOf: samples)
        var frames: [[Float]] = []
        var start = 0
        while pending.count - start >= Self.window {
            frames.append(frame(at: start))
            start += Self.hop
        }
        if start > 0 { pending.removeFirst(start) }
        frameCount += frames.count
        return frames
    }

    /// Log-mel frames of a whole 16 kHz mono buffer.
    public static func frames(of buffer: AudioBuffer, bandCount: Int = 40) -> [[Float]] {
        precondition(buffer.format.sampleRate == sampleRate && buffer.format.channels == 1, "needs 16 kHz mono")
        return LogMelFeatureExtractor(bandCount: bandCount).process(buffer.samples)
    }

    private func frame(at start: Int) -> [Float] {
        let power = spectrum.power(Array(pending[start..<(start + Self.window)]), window: hann)
        var bands = filterbank.apply(power)
        for band in bands.indices { bands[band] = log(bands[band] + 1e-10) }
        return bands
    }
}
