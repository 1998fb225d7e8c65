/// Changes a buffer's channel count: averages down to mono, copies mono up to many.
public enum ChannelMixer {
    /// Averages every frame's channels into one (keeps the level of correlated channels).
    public static func mixdownToMono(_ buffer: AudioBuffer) -> AudioBuffer {
        let channels = buffer.format.channels
        var format = buffer.format
        format.channels = 1
        guard channels > 1 else { return buffer }
        let scale = 1 / Float(channels)
        var mono = [Float](repeating: 0, count: buffer.frameCount)
        buffer.samples.withUnsafeBufferPointer { source in
            for frame in 0..<mono.count {
                var sum: Float = 0
                for channel in 0..<channels { sum += source[frame * channels + channel] }
                mono[frame] = sum * scale
            }
        }
        return AudioBuffer(format: format, samples: mono)
    }

    /// Converts to `channels`: mono is copied to each, anything else is mixed to mono first.
    public static func convert(_ buffer: AudioBuffer, toChannels channels: Int) -> AudioBuffer {
        precondition(channels >= 1)
        if buffer.format.channels == channels { return buffer }
        let mono = mixdownToMono(buffer)
        if channels == 1 { return mono }
        var format = mono.format
        format.channels = channels
        var samples = [Float]()
        samples.reserveCapacity(mono.samples.count * channels)
        for sample in mono.samples {
            for _ in 0..<channels { samples.append(sample) }
        }
        return AudioBuffer(format: format, samples: samples)
    }
}
