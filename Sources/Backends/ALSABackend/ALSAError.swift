import Foundation

/// A libasound error with what was being attempted.
public struct ALSAError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    /// libasound's negative errno.
    public var code: Int32

    /// The one checkpoint for libasound's negative-errno returns.
    @discardableResult
    static func check<T: BinaryInteger>(_ operation: String, _ result: T) throws(ALSAError) -> T {
        if result < 0 { throw ALSAError(operation: operation, code: Int32(result)) }
        return result
    }

    /// An xrun (`-EPIPE`) or a suspend (`-ESTRPIPE`): `snd_pcm_recover` can resume the stream.
    var isRecoverable: Bool { code == -EPIPE || code == -ESTRPIPE || code == -EINTR }

    public var description: String { "ALSA: \(operation) failed: \(LibASound.describe(code))" }
}
