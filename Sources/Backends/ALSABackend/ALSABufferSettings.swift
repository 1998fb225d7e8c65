/// The period and buffer a PCM is opened with: libasound wakes the reader or writer once per
/// period, and the buffer holds what survives a late wake-up (`snd_pcm_hw_params_set_period_size_near`,
/// `snd_pcm_hw_params_set_buffer_size_near`).
public struct ALSABufferSettings: Sendable, Hashable, CustomStringConvertible {
    public var period: Duration
    public var buffer: Duration

    /// 20 ms periods in an 80 ms buffer: what a voice capture at 16 kHz wants (handed on in
    /// ``CaptureFrame`` frames of 80 ms, four periods).
    public static let voice = ALSABufferSettings(period: .milliseconds(20), buffer: .milliseconds(80))
    /// 25 ms periods in a 200 ms buffer: playback that survives a busy machine.
    public static let media = ALSABufferSettings(period: .milliseconds(25), buffer: .milliseconds(200))

    public init(period: Duration, buffer: Duration) {
        self.period = period
        self.buffer = buffer
    }

    /// Checks the sizes: the period within 1 ms…1 s, the buffer at least two periods and at most 10 s.
    public func validate() throws(ALSASettingsError) {
        guard period >= .milliseconds(1), period <= .seconds(1) else {
            throw ALSASettingsError("period \(period) is not within 1 ms…1 s")
        }
        guard buffer >= period * 2, buffer <= .seconds(10) else {
            throw ALSASettingsError("buffer \(buffer) must hold at least two periods (\(period * 2)) and at most 10 s")
        }
    }

    /// Frames of one period at `rate`, at least 1.
    public func periodFrames(rate: Int) -> Int { Self.frames(period, rate: rate) }
    /// Frames of the buffer at `rate`, at least 2.
    public func bufferFrames(rate: Int) -> Int { max(2, Self.frames(buffer, rate: rate)) }

    static func frames(_ duration: Duration, rate: Int) -> Int {
        let (seconds, attoseconds) = duration.components
        let exact = Double(seconds) * Double(rate) + Double(attoseconds) * 1e-18 * Double(rate)
        return max(1, Int(exact.rounded()))
    }

    public var description: String { "period \(period), buffer \(buffer)" }
}

/// Period and buffer sizes that cannot be asked of a PCM.
public struct ALSASettingsError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
