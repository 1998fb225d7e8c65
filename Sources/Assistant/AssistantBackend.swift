public import AudioCore
public import Foundation

/// A captured command, as a backend receives it.
public struct Utterance: Sendable {
    /// 16 kHz mono.
    public var audio: AudioBuffer
    /// The wake phrase that started it ("trigger" for push-to-talk).
    public var wakeWord: String
    public var capturedAt: Date
    /// The rate the mic's link carries (8000 for CVSD, 16000 for mSBC), when known: audio
    /// resampled up from 8 kHz has nothing above 4 kHz.
    public var linkRate: Int?

    public init(audio: AudioBuffer, wakeWord: String, capturedAt: Date = Date(), linkRate: Int? = nil) {
        self.audio = audio
        self.linkRate = linkRate
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
