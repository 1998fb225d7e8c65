import Assistant
import AudioCore
import Foundation

/// One command as the backend receives it: the `command` JSON and its audio bytes.
enum AssistantSocketCommand {
    static func encode(_ utterance: Utterance, id: String, format: AssistantSocketFormat) throws -> (String, [UInt8]) {
        let audio = utterance.audio
        let duration = audio.duration
        let events = [
            AssistantSocketMessage.VoiceEvent(type: "wake", time: 0, text: utterance.wakeWord),
            AssistantSocketMessage.VoiceEvent(type: "speechStarted", time: 0),
            AssistantSocketMessage.VoiceEvent(type: "speechStopped", time: duration),
        ]
        let header = AssistantSocketMessage.Command(
            id: id, wakeWord: utterance.wakeWord, format: format.rawValue, rate: audio.format.sampleRate, channels: audio.format.channels,
            duration: duration, capturedAt: ISO8601DateFormatter().string(from: utterance.capturedAt), linkRate: utterance.linkRate, events: events)
        let bytes: [UInt8]
        switch format {
        case .pcm: bytes = PCMConversion.s16le(audio.samples)
        case .oggOpus: bytes = try oggOpus(audio)
        }
        return (AssistantSocketMessage.json(header), bytes)
    }

    /// Encodes through a temporary file (the Ogg Opus writer writes files).
    private static func oggOpus(_ audio: AudioBuffer) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("assistant-command-\(UUID().uuidString).opus").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try OggOpusFileWriter(path: path, format: PCMFormat(sampleRate: audio.format.sampleRate, channels: audio.format.channels))
        try writer.write(audio)
        try writer.close()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
