public import AudioCore
public import Foundation

/// A captured command, as a backend receives it.
public struct Utterance: Sendable {
    /// 16 kHz mono.
    public var audio: AudioBuffer
    /// The wake phrase that started it ("trigger" for push-to-talk).
    public var wakeWord: String
    public var capturedAt: Date

    public init(audio: AudioBuffer, wakeWord: String, capturedAt: Date = Date()) {
        self.audio = audio
        self.wakeWord = wakeWord
        self.capturedAt = capturedAt
    }
}

/// What a backend answers: what it heard, and the text to speak (empty: say nothing).
public struct AssistantReply: Sendable, Equatable {
    public var heard: String
    public var answer: String

    public init(heard: String, answer: String) {
        self.heard = heard
        self.answer = answer
    }
}

/// Where captured commands go: the local grammar backend (offline), and in the daemon step
/// Home Assistant over Wyoming or a custom backend over WebSocket.
public protocol AssistantBackend: Sendable {
    var name: String { get }
    func respond(to utterance: Utterance) async throws -> AssistantReply
}
