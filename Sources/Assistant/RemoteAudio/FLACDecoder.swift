internal import CFLAC
import AudioCore

/// FLAC bytes to samples through libFLAC's stream decoder, reading from memory: the frames'
/// interleaved samples scaled to ±1, at the stream's rate and channel count.
enum FLACDecoder {
    /// What the callbacks fill; passed to libFLAC as its client data.
    private final class Stream {
        let bytes: [UInt8]
        var offset = 0
        var samples: [Float] = []
        var rate = 0
        var channels = 0
        var problem: String?

        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    static func decode(_ bytes: [UInt8]) throws(RemoteAudioError.Problem) -> AudioBuffer {
        guard let decoder = FLAC__stream_decoder_new() else { throw .undecodable("libFLAC could not make a decoder") }
        defer { FLAC__stream_decoder_delete(decoder) }
        let stream = Stream(bytes)
        let client = Unmanaged.passUnretained(stream).toOpaque()
        let status = withExtendedLifetime(stream) {
            FLAC__stream_decoder_init_stream(decoder, read, nil, nil, nil, nil, write, nil, error, client)
        }
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else { throw .undecodable("libFLAC refused to start (init status \(status.rawValue))") }
        let finished = withExtendedLifetime(stream) { FLAC__stream_decoder_process_until_end_of_stream(decoder) != 0 }
        _ = FLAC__stream_decoder_finish(decoder)
        if let problem = stream.problem { throw .undecodable("FLAC: \(problem)") }
        guard finished else { throw .undecodable("FLAC: the stream ended in the middle (\(bytes.count) bytes)") }
        guard stream.channels > 0, stream.rate > 0, !stream.samples.isEmpty else { throw .undecodable("FLAC: no audio frames") }
        return AudioBuffer(format: PCMFormat(sampleRate: stream.rate, channels: stream.channels), samples: stream.samples)
    }

    private static func stream(_ client: UnsafeMutableRawPointer?) -> Stream {
        Unmanaged<Stream>.fromOpaque(client!).takeUnretainedValue()
    }

    private static let read: FLAC__StreamDecoderReadCallback = { _, buffer, count, client in
        let stream = stream(client)
        guard let buffer, let count else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
        let take = min(count.pointee, stream.bytes.count - stream.offset)
        guard take > 0 else {
            count.pointee = 0
            return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM
        }
        stream.bytes.withUnsafeBufferPointer { source in
            buffer.update(from: source.baseAddress! + stream.offset, count: take)
        }
        stream.offset += take
        count.pointee = take
        return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
    }

    private static let write: FLAC__StreamDecoderWriteCallback = { _, frame, channelData, client in
        let stream = stream(client)
        guard let header = frame?.pointee.header, let channelData else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
        let channels = Int(header.channels)
        guard stream.channels == 0 || (stream.channels == channels && stream.rate == Int(header.sample_rate)) else {
            stream.problem = "the rate or channel count changes inside the stream"
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        stream.channels = channels
        stream.rate = Int(header.sample_rate)
        let scale = 1 / Float(1 << (Int(header.bits_per_sample) - 1))
        let frames = Int(header.blocksize)
        stream.samples.reserveCapacity(stream.samples.count + frames * channels)
        for index in 0..<frames {
            for channel in 0..<channels {
                stream.samples.append(Float(channelData[channel]![index]) * scale)
            }
        }
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    private static let error: FLAC__StreamDecoderErrorCallback = { _, status, client in
        let stream = stream(client)
        if stream.problem == nil { stream.problem = "the stream is damaged (libFLAC error status \(status.rawValue))" }
    }
}
