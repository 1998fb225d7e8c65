public import AudioCore
import Foundation

/// Audio bytes as samples, told apart by their first bytes (a server's content type is often
/// generic): WAV (`RIFF`…`WAVE`) through AudioCore's reader, FLAC (`fLaC`) through libFLAC.
/// These are the formats the glasses' media player lists, so Home Assistant converts to them.
public enum RemoteAudioDecoder {
    public static func decode(_ bytes: [UInt8], contentType: String? = nil) throws(RemoteAudioError.Problem) -> AudioBuffer {
        if bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] {
            do {
                return try WAVFile.decode(Data(bytes))
            } catch {
                throw .undecodable("WAV: \(error)")
            }
        }
        if bytes.count >= 4, bytes[0..<4] == [0x66, 0x4C, 0x61, 0x43] {
            return try FLACDecoder.decode(bytes)
        }
        let start = String(decoding: bytes.prefix(16), as: UTF8.self).map { $0.isASCII && !$0.isNewline ? $0 : "." }
        throw .notAudio("\(bytes.count) bytes\(contentType.map { " of \($0)" } ?? ""), starting '\(String(start))'")
    }
}
