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
    /// How long the backend has to answer: the assistant's reply timeout, which the backend
    /// keeps to (throwing a ``ReplyTimeLimitError`` or saying so in its reply) instead of a
    /// timeout of its own; `nil`: no limit (the caller cancels).
    public var timeLimit: Duration?

    public init(audio: AudioBuffer, wakeWord: String, capturedAt: Date = Date(), linkRate: Int? = nil, timeLimit: Duration? = nil) {
        self.audio = audio
        self.timeLimit = timeLimit
        self.linkRate = linkRate
        self.wakeWord = wakeWord
        self.capturedAt = capturedAt
    }
}

/// What a backend answers: what it heard, and the text to speak (empty: say nothing), or
/// audio to play instead of speaking the text (Home Assistant's TTS, a custom backend's voice).
public struct AssistantReply: Sendable, Equatable {
    public var heard: String
    public var answer: String
    /// Played on the speaker route in place of the text's synthesis (any rate, mono).
    public var audio: AudioBuffer?

    public init(heard: String, answer: String, audio: AudioBuffer? = nil) {
        self.heard = heard
        self.answer = answer
        self.audio = audio
    }
}

/// Where captured commands go: the local grammar backend (offline), and in the daemon step
/// Home Assistant over Wyoming or a custom backend over WebSocket.
public protocol AssistantBackend: Sendable {
    var name: String { get }
    func respond(to utterance: Utterance) async throws -> AssistantReply
    /// The reply has been played to the end (Wyoming sends `played`). Default: nothing.
    func replyPlayed(_ reply: AssistantReply) async
    /// A command's capture opens (the wake word or a trigger). A backend that takes the
    /// command as it is spoken returns where the mic's audio goes from now on, and its
    /// `respond(to:)` for this command ends that stream and waits for the reply instead of
    /// sending the audio again. Default: nil, the command comes whole to `respond(to:)`.
    func openLiveCommand(_ start: LiveCommandStart) async -> (any LiveCommand)?
}

extension AssistantBackend {
    public func replyPlayed(_ reply: AssistantReply) async {}
    public func openLiveCommand(_ start: LiveCommandStart) async -> (any LiveCommand)? { nil }
}
