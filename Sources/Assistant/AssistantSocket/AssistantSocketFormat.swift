/// How command audio goes to a WebSocket backend (`?format=` on connect).
public enum AssistantSocketFormat: String, Sendable, CaseIterable {
    /// 16 kHz mono, 16-bit little-endian PCM.
    case pcm = "pcm_s16le"
    /// Ogg Opus (24 kb/s speech), a tenth of the size.
    case oggOpus = "ogg_opus"
}
