/// Opens any audio file the service understands, by its content (WAV or Ogg Opus).
public enum AudioFileReader {
    public static func read(_ path: String) throws(AudioFileError) -> AudioBuffer {
        if path.lowercased().hasSuffix(".opus") || path.lowercased().hasSuffix(".ogg") {
            return try OggOpusFile.read(path)
        }
        return try WAVFile.read(path)
    }
}
