import Foundation
internal import COpus

// The one file in AudioCore that reaches libopusfile and libopusenc (COpus): the rest of the
// module reads and writes Ogg Opus through these two small types and their errors.

/// An error code of libopusfile (`OP_E…`), in words.
struct OpusStreamError: Error, CustomStringConvertible {
    let code: Int32

    /// The data is not an Ogg Opus stream at all (`OP_ENOTFORMAT`).
    var isNotOpusStream: Bool { code == OP_ENOTFORMAT }

    var description: String {
        switch code {
        case OP_EREAD: "read error"
        case OP_EFAULT, OP_EIMPL, OP_EINVAL: "decoder failure \(code)"
        case OP_ENOTFORMAT: "not an Ogg Opus stream"
        case OP_EBADHEADER: "damaged header"
        case OP_EVERSION: "unknown Opus version"
        case OP_EBADPACKET: "damaged packet"
        case OP_EBADLINK: "damaged link between streams"
        case OP_ENOSEEK: "cannot seek"
        case OP_EBADTIMESTAMP: "the pages' timestamps are inconsistent (a file cut short?)"
        default: "opusfile error \(code)"
        }
    }
}

/// An Ogg Opus file opened for decoding (libopusfile's `OggOpusFile`), always at 48 kHz.
/// Freed by ``close()`` or when it goes.
final class OpusStreamDecoder {
    private var file: OpaquePointer?
    /// Channels of the first link.
    let channels: Int
    /// The rate the encoder was given, from the header (48 kHz when it says none).
    let inputSampleRate: Int

    /// What one ``read(into:)`` gave.
    enum Read {
        /// This many frames (interleaved samples / channels) at the start of the buffer.
        case frames(Int)
        /// The end of the stream.
        case end
        /// The stream breaks off here.
        case broken(OpusStreamError)
    }

    init(path: String) throws(OpusStreamError) {
        var error: Int32 = 0
        guard let file = op_open_file(path, &error) else { throw OpusStreamError(code: error) }
        self.file = file
        channels = Int(op_channel_count(file, -1))
        inputSampleRate = Int(op_head(file, -1)?.pointee.input_sample_rate ?? 48000)
    }

    /// Decodes the next packet's worth into `buffer` (room for 5760 frames of every channel
    /// holds any packet); a hole in the stream (a lost page) is skipped.
    func read(into buffer: inout [Float]) -> Read {
        guard let file else { return .end }
        while true {
            let frames = buffer.withUnsafeMutableBufferPointer {
                op_read_float(file, $0.baseAddress, Int32($0.count), nil)
            }
            if frames == OP_HOLE { continue }
            if frames < 0 { return .broken(OpusStreamError(code: frames)) }
            return frames == 0 ? .end : .frames(Int(frames))
        }
    }

    func close() {
        if let file { op_free(file) }
        file = nil
    }

    deinit { close() }
}

/// libopusenc's status codes (`OPE_…`) in words (`ope_strerror`).
struct OpusEncoderError: Error {
    let message: String

    init(status: Int32) { message = String(cString: ope_strerror(status)) }
    init(message: String) { self.message = message }
}

/// A libopusenc encoder that hands its pages to a write callback (`ope_encoder_create_callbacks`).
/// Not thread-safe: its owner serialises the calls.
struct OpusPageEncoder {
    /// The page callback: the `context` given at creation, the page's bytes and their count;
    /// returns 0 when written, anything else when not.
    typealias WritePage = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int32) -> Int32

    private let encoder: OpaquePointer

    /// Creates an encoder for `sampleRate`/`channels` audio, tagged as written by GlassesAudio.
    init(sampleRate: Int, channels: Int, context: UnsafeMutableRawPointer, write: WritePage) throws(SetupFailure) {
        guard let comments = ope_comments_create() else { throw .comments }
        defer { ope_comments_destroy(comments) }
        _ = ope_comments_add(comments, "ENCODER", "GlassesAudio")
        var callbacks = OpusEncCallbacks(write: write, close: { _ in 0 })
        var error: Int32 = 0
        guard let encoder = ope_encoder_create_callbacks(
            &callbacks, context, comments, Int32(sampleRate), Int32(channels), channels > 2 ? 1 : 0, &error)
        else { throw .encoder(OpusEncoderError(status: error)) }
        self.encoder = encoder
    }

    /// Why an encoder could not be made.
    enum SetupFailure: Error {
        /// `ope_comments_create` failed.
        case comments
        case encoder(OpusEncoderError)
    }

    /// Sets the bitrate (bit/s), the speech hint, and how long (in 48 kHz samples) audio may wait
    /// before it is encoded (`decisionDelay`) and before its page goes out (`muxingDelay`), then
    /// writes the header pages.
    func configure(bitrate: Int, speech: Bool, muxingDelay: Int32, decisionDelay: Int32) throws(OpusEncoderError) {
        for status in [
            COpus_encoderSetBitrate(encoder, Int32(bitrate)),
            speech ? COpus_encoderSetVoiceSignal(encoder) : OPE_OK,
            COpus_encoderSetMuxingDelay(encoder, muxingDelay),
            COpus_encoderSetDecisionDelay(encoder, decisionDelay),
            ope_encoder_flush_header(encoder),
        ] where status != OPE_OK {
            throw OpusEncoderError(status: status)
        }
    }

    /// Encodes `frames` frames of interleaved float samples.
    func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(OpusEncoderError) {
        let status = ope_encoder_write_float(encoder, samples.baseAddress, Int32(frames))
        if status != OPE_OK { throw OpusEncoderError(status: status) }
    }

    /// Drains what is buffered into the last pages and frees the encoder (also when the drain
    /// fails); returns the drain's error, if any. The encoder is not used after.
    func drainAndDestroy() -> OpusEncoderError? {
        let status = ope_encoder_drain(encoder)
        ope_encoder_destroy(encoder)
        return status == OPE_OK ? nil : OpusEncoderError(status: status)
    }
}
