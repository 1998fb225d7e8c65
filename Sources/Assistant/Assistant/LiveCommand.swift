/// How a command's capture opened, for a backend that takes the command as it is spoken.
public struct LiveCommandStart: Sendable, Equatable {
    /// The wake phrase that opened it ("trigger" for push-to-talk).
    public var wakeWord: String
    /// The rate the mic's link carries (8000 for CVSD, 16000 for mSBC), when known.
    public var linkRate: Int?
    /// Speech was already under way when the capture opened (the command follows the wake
    /// phrase without a pause): the stream starts inside it.
    public var speechUnderWay: Bool

    public init(wakeWord: String, linkRate: Int? = nil, speechUnderWay: Bool = false) {
        self.wakeWord = wakeWord
        self.linkRate = linkRate
        self.speechUnderWay = speechUnderWay
    }
}

/// Where a command's audio goes while it is spoken (Home Assistant runs its pipeline on the
/// stream): the mic from the capture's start, 16 kHz mono, and the voice stage's speech edges,
/// as they come. The owner calls these in order from one place; they return at once (the
/// backend buffers and sends on its own, in order). The command ends with the backend's
/// `respond(to:)` (the captured command: the stream's end, then the reply) or with ``close()``
/// (the capture ended without a command).
public protocol LiveCommand: Sendable {
    /// The next mic samples, 16 kHz mono.
    func audio(_ samples: [Float])
    /// The voice stage heard speech start (`true`) or stop.
    func speech(started: Bool)
    /// The capture ended without a command: the stream ends unanswered (a reply that still
    /// comes is dropped). Once closed, further calls do nothing.
    func close() async
}
