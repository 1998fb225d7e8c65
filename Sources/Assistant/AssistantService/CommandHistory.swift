public import Assistant
import AudioCore
import Foundation

/// Keeps each command: its audio as Ogg Opus and a JSON file beside it with what was heard and
/// answered (the conversation history the daemon serves). Both are written atomically.
public struct CommandHistory: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// What is kept beside each command's audio.
    public struct Entry: Codable, Sendable, Equatable {
        public var audio: String
        public var wakeWord: String
        public var capturedAt: Date
        public var seconds: Double
        public var heard: String
        public var answer: String
    }

    @discardableResult
    public func keep(_ utterance: Utterance, reply: AssistantReply) throws -> Entry {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withFractionalSeconds]
        let stem = "command-" + formatter.string(from: utterance.capturedAt).replacingOccurrences(of: ":", with: "")
        let audioPath = (directory as NSString).appendingPathComponent(stem + ".opus")
        try OggOpusFile.write(utterance.audio, to: audioPath, bitrate: 24000)
        let entry = Entry(
            audio: stem + ".opus", wakeWord: utterance.wakeWord, capturedAt: utterance.capturedAt,
            seconds: utterance.audio.duration, heard: reply.heard, answer: reply.answer)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(entry).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent(stem + ".json")), options: .atomic)
        return entry
    }
}
