import AudioCore
import AudioBackend
import Foundation
import Routing

/// Playback into an ALSA PCM; the blocking calls run on the stream's own serial queue.
///
/// Unchecked `Sendable`: every call on the PCM goes through the serial `queue`; the rest is constant.
final class ALSAPlayback: PlaybackStream, @unchecked Sendable {
    let pcm: ALSAPCM
    let format: PCMFormat
    private let queue = DispatchQueue(label: "alsa-playback")

    init(pcm: ALSAPCM) {
        self.pcm = pcm
        format = pcm.format
    }

    func write(_ buffer: AudioBuffer) async throws {
        let converted = try Resampler.resample(ChannelMixer.convert(buffer, toChannels: format.channels), to: format.sampleRate)
        try await onQueue { [pcm] in try pcm.write(converted.samples) }
    }

    func drain() async throws { try await onQueue { [pcm] in try pcm.drain() } }

    func close() async {}

    private func onQueue(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                do {
                    try work()
                    continuation.resume()
                } catch let error as ALSAError {
                    continuation.resume(throwing: StreamSessionError.audioStreamingError(error.description))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
