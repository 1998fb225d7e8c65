/// Audio read from a damaged file as far as it could be, and what was wrong past that.
public struct RecoveredAudio: Sendable, Equatable {
    /// Everything readable (all of it when `damage` is nil).
    public var buffer: AudioBuffer
    /// Why reading stopped early, if it did.
    public var damage: AudioFileError.Problem?

    public init(buffer: AudioBuffer, damage: AudioFileError.Problem? = nil) {
        self.buffer = buffer
        self.damage = damage
    }
}
