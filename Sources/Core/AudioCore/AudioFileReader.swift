/// Opens any audio file the service understands, by its content (WAV or Ogg Opus).
public enum AudioFileReader {
    public static func read(_ path: String) throws(AudioFileError) -> AudioBuffer {
        if path.lowercased().hasSuffix(".opus") || path.lowercased().hasSuffix(".ogg") {
            return try OggOpusFile.read(path)
        }
        return try WAVFile.read(path)
    }

    /// Like ``read(_:)``, but a file damaged part-way gives what comes before the damage,
    /// with the damage described, instead of an error.
    public static func readRecovering(_ path: String) throws(AudioFileError) -> RecoveredAudio {
        if path.lowercased().hasSuffix(".opus") || path.lowercased().hasSuffix(".ogg") {
            return try OggOpusFile.readRecovering(path)
        }
        return try WAVFile.readRecovering(path)
    }
}
