public import AudioBackend
public import AudioCore

/// Speech into a playback route: chunks resampled (one streaming resampler) to the stream's
/// rate and channels (8 kHz CVSD or 16 kHz mSBC on HFP, 44.1/48 kHz on A2DP), written as they
/// come, drained at the end. Cancelling the calling task stops it (barge-in); what was played
/// is handed to `played` as it is written, for an echo canceller's reference.
public enum SpeechPlayer {
    /// What one reply's playback did.
    public struct Report: Sendable {
        /// How much speech was written to the stream.
        public var spoken: Duration
        /// Whether it stopped before the end (cancelled).
        public var interrupted: Bool
    }

    /// The stream the speech was written to failed (a lost link, a stream closed under it),
    /// as opposed to the speech itself (the synthesiser): the route's trouble, not the reply's.
    public struct StreamFailure: Error, CustomStringConvertible {
        public var underlying: any Error
        public var description: String { "\(underlying)" }
    }

    public static func play(
        _ chunks: AsyncThrowingStream<AudioBuffer, any Error>, to stream: any PlaybackStream,
        played: @Sendable (AudioBuffer) -> Void = { _ in }, firstChunk: @Sendable () -> Void = {}
    ) async throws -> Report {
        let target = stream.format
        var resampler: Resampler?
        var written = 0
        var first = true
        do {
            for try await chunk in chunks {
                try Task.checkCancellation()
                if first {
                    first = false
                    firstChunk()
                }
                let out = try convert(chunk, to: target, with: &resampler)
                guard !out.isEmpty else { continue }
                try await streamCall { try await stream.write(out) }
                played(out)
                written += out.frameCount
            }
            if let resampler {
                let tail = try resampler.flush()
                let buffer = ChannelMixer.convert(AudioBuffer(format: PCMFormat(sampleRate: target.sampleRate, channels: 1), samples: tail), toChannels: target.channels)
                if !buffer.isEmpty {
                    try await streamCall { try await stream.write(buffer) }
                    played(buffer)
                    written += buffer.frameCount
                }
            }
            try await streamCall { try await stream.drain() }
        } catch is CancellationError {
            await stream.discardQueued()
            return Report(spoken: length(written, at: target.sampleRate), interrupted: true)
        }
        return Report(spoken: length(written, at: target.sampleRate), interrupted: false)
    }

    /// Runs a call on the stream; its failure becomes a ``StreamFailure``.
    private static func streamCall(_ call: () async throws -> Void) async throws {
        do {
            try await call()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StreamFailure(underlying: error)
        }
    }

    /// Mono speech at its own rate → the stream's rate and channel count.
    static func convert(_ chunk: AudioBuffer, to target: PCMFormat, with resampler: inout Resampler?) throws -> AudioBuffer {
        let mono = chunk.format.channels == 1 ? chunk : ChannelMixer.mixdownToMono(chunk)
        var samples = mono.samples
        if mono.format.sampleRate != target.sampleRate {
            if resampler == nil { resampler = try Resampler(from: mono.format.sampleRate, to: target.sampleRate, channels: 1) }
            samples = try resampler!.process(samples)
        }
        return ChannelMixer.convert(AudioBuffer(format: PCMFormat(sampleRate: target.sampleRate, channels: 1), samples: samples), toChannels: target.channels)
    }

    /// How long `frames` frames at `sampleRate` play.
    private static func length(_ frames: Int, at sampleRate: Int) -> Duration {
        SampleTime.zero(rate: sampleRate).duration(to: SampleTime(frame: Int64(frames), sampleRate: sampleRate))
    }
}
