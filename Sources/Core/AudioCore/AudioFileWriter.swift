import Foundation

/// Audio written to a file as it arrives, so the file on disk holds what was captured even
/// when the process ends without closing it (Ctrl-C, SIGTERM, `kill -9`, a crash).
///
/// Writers keep no audio in memory: memory stays flat whatever the length. Each brings the
/// file up to date at least every ``AudioFileWriters/checkpointInterval`` of audio (a WAV
/// header's sizes, an Ogg page), and fully at ``close()``.
public protocol AudioFileWriter: Sendable {
    /// The file being written.
    var path: String { get }
    /// The format of the audio handed to ``write(_:)``.
    var format: PCMFormat { get }
    /// Frames written so far.
    var framesWritten: Int { get }
    /// Level of everything written so far.
    var level: AudioLevel { get }
    /// Appends `buffer` (in ``format``).
    func write(_ buffer: AudioBuffer) throws(AudioFileError)
    /// Finishes the file; later calls do nothing.
    func close() throws(AudioFileError)
}

extension AudioFileWriter {
    /// Seconds written so far.
    public var duration: Double { Double(framesWritten) / Double(format.sampleRate) }
}

/// Picks and opens a writer by the file's extension.
public enum AudioFileWriters {
    /// How much audio at most a file on disk lags behind what was written.
    public static let checkpointInterval = Duration.seconds(1)

    /// Opens a `.wav` (16-bit PCM) or `.opus` (Ogg Opus at `bitrate`) writer for `path`,
    /// creating or replacing the file now, so a bad destination is found before any audio.
    public static func open(_ path: String, format: PCMFormat, bitrate: Int = 24_000) throws(AudioFileError) -> any AudioFileWriter {
        if path.hasSuffix(".opus") { return try OggOpusFileWriter(path: path, format: format, bitrate: bitrate) }
        return try WAVFileWriter(path: path, format: format)
    }

    /// Stops the program when `buffer`'s rate or channels are not the file's `format`: a
    /// programming error in the caller, which owns both.
    static func requireSameLayout(_ buffer: AudioBuffer, as format: PCMFormat) {
        precondition(buffer.format.sampleRate == format.sampleRate && buffer.format.channels == format.channels,
                     "a \(buffer.format) buffer written to a \(format) file")
    }

    /// Throws, naming the problem, unless a file can be created at `path`: its folder
    /// exists, is a folder and is writable, and `path` is not itself a folder.
    public static func checkDestination(_ path: String) throws(AudioFileError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw AudioFileError(path: path, problem: .writeFailed("it is a folder; give a file name inside it"))
        }
        try AudioFileError.checkFolderExists(for: path)
        let folder = (path as NSString).deletingLastPathComponent
        guard access(folder.isEmpty ? "." : folder, W_OK) == 0 else {
            throw AudioFileError(path: path, problem: .writeFailed("folder \(folder.isEmpty ? "." : folder) is not writable (\(String(cString: strerror(errno))))"))
        }
    }
}
