import Assistant
import AudioCore
import ESPHomeAPI
public import Logging

/// The glasses' side of Home Assistant's voice pipeline over the ESPHome API: which client
/// subscribed to the voice assistant (the last to subscribe, until it lets go or leaves), and
/// the run now with it: `VoiceAssistantRequest(start)` and the mic's audio out, HA's events
/// back through an ``ESPHomeVoiceRun``, the reply handed to the assistant, and
/// `VoiceAssistantAnnounceFinished` when the glasses have played it.
public actor ESPHomeVoiceSatellite {
    public typealias Push = @Sendable (ESPHomeFrame) -> Void

    private struct Run {
        var number: Int
        var peer: Int
        var machine = ESPHomeVoiceRun()
        var command: ESPHomeLiveCommand
        var replies: AsyncThrowingStream<ESPHomeVoiceReply, any Error>
        var reply: AsyncThrowingStream<ESPHomeVoiceReply, any Error>.Continuation
    }

    private let logger: Logger
    private var subscriber: (peer: Int, push: Push)?
    private var run: Run?
    private var runs = 0
    /// HA's conversation, from the last INTENT_END: the next run continues it.
    private var conversationID = ""
    /// The client whose reply is playing (gets AnnounceFinished when it has played), and
    /// whether HA wants an answer to it (listen again, no wake word).
    private var playingFor: (peer: Int, continueConversation: Bool)?
    /// The announcements being played (each removes itself when it has been answered), so the
    /// server ends none unfinished: ``finishAnnouncements()``.
    private var announcing: [Int: Task<Void, Never>] = [:]
    private var announcements = 0
    private let listens: AsyncStream<Void>.Continuation
    /// The trigger source: each element asks the assistant to listen now, without the wake
    /// word (HA continues the conversation); the server passes them on while it runs.
    public nonisolated let listenRequests: AsyncStream<Void>

    public init(logger: Logger) {
        self.logger = logger
        (listenRequests, listens) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Whether a client subscribed to the voice assistant now (Home Assistant's satellite).
    public var isConnected: Bool { subscriber != nil }

    // MARK: - From the connections

    func subscribed(peer: Int, push: @escaping Push) {
        subscriber = (peer, push)
    }

    /// The client let go of the voice assistant or left: a run with it fails.
    func disconnected(peer: Int) {
        if subscriber?.peer == peer { subscriber = nil }
        if playingFor?.peer == peer { playingFor = nil }
        if let current = run, current.peer == peer {
            logger.warning("esphome: client \(peer) left during command \(current.number) (its stream to Home Assistant's pipeline ends there)")
            end(current, throwing: .disconnected)
        }
    }

    func received(_ message: ESPHomeVoiceMessage, from peer: Int) {
        guard var current = run, current.peer == peer else {
            logger.debug("esphome: client \(peer): a voice message with no run of its own in progress: ignored")
            return
        }
        let actions: [ESPHomeVoiceRun.Action]
        switch message {
        case .response(let port, let error): actions = current.machine.responded(port: port, error: error)
        case .event(let event): actions = current.machine.received(event)
        case .timer, .announce: return  // the connection hands these on (timers, ``announce(_:from:push:play:)``)
        }
        run = current
        for action in actions {
            switch action {
            case .stopStreaming:
                current.command.stopStreaming()
            case .reply(let reply):
                if let id = reply.conversationID { conversationID = id }
                run = nil
                playingFor = (peer, reply.continueConversation)
                current.reply.yield(reply)
                current.reply.finish()
            case .fail(let reason):
                end(current, throwing: .pipelineFailed(reason))
            }
        }
    }

    // MARK: - From the backend

    /// Opens a run for a command streamed as it is spoken: the start request now, the audio
    /// as it comes; nil when no client subscribed or a run is in progress.
    func openLive(_ start: LiveCommandStart) -> (any LiveCommand)? {
        openRun(wakeWord: start.wakeWord)
    }

    private func openRun(wakeWord: String) -> ESPHomeLiveCommand? {
        guard let subscriber, run == nil else { return nil }
        runs += 1
        let number = runs
        var request = ESPHomeVoiceAssistantRequest()
        request.start = true
        request.conversationID = conversationID
        // No USE_WAKE_WORD: the glasses heard the wake word, HA starts at speech-to-text.
        request.flags = 0
        request.wakeWordPhrase = wakeWord == "trigger" ? "" : wakeWord
        guard let frame = try? request.frame() else { return nil }
        subscriber.push(frame)
        let command = ESPHomeLiveCommand(push: subscriber.push, onClose: { [weak self] in await self?.closeLive(number) })
        let (replies, reply) = AsyncThrowingStream.makeStream(of: ESPHomeVoiceReply.self)
        run = Run(number: number, peer: subscriber.peer, command: command, replies: replies, reply: reply)
        logger.info("esphome: command \(number) streamed to Home Assistant's pipeline (client \(subscriber.peer)\(wakeWord == "trigger" ? "" : ", wake word '\(wakeWord)'"))")
        return command
    }

    /// The capture closed without a command: HA's run is aborted (`VoiceAssistantRequest(start=false)`).
    private func closeLive(_ number: Int) {
        guard let current = run, current.number == number else { return }
        var stop = ESPHomeVoiceAssistantRequest()
        stop.start = false
        if let frame = try? stop.frame(), let subscriber, subscriber.peer == current.peer { subscriber.push(frame) }
        run = nil
        current.reply.finish()
    }

    /// The command's reply: a streamed command's stream ends (`end=true`, unless HA's VAD
    /// ended it) and HA's answer is awaited; a command that was not streamed is sent whole first.
    func respond(to utterance: Utterance) async throws -> ESPHomeVoiceReply {
        if run == nil {
            guard let command = openRun(wakeWord: utterance.wakeWord) else { throw ESPHomeSatelliteError.notConnected }
            let audio = utterance.audio.format.channels == 1 ? utterance.audio : ChannelMixer.mixdownToMono(utterance.audio)
            command.audio(audio.samples)
        }
        guard let current = run else { throw ESPHomeSatelliteError.notConnected }
        current.command.end()
        for try await reply in current.replies { return reply }
        // Given up (the reply's time limit, the assistant stopping): HA's run is aborted.
        closeLive(current.number)
        throw ESPHomeSatelliteError.cancelled
    }

    /// The reply played to its end: HA's satellite leaves its "responding" state, and when HA
    /// continues the conversation the assistant listens again at once.
    func replyPlayed() {
        guard let playing = playingFor else { return }
        playingFor = nil
        announceFinished(to: playing.peer, success: true)
        if playing.continueConversation, subscriber?.peer == playing.peer {
            logger.info("esphome: Home Assistant continues the conversation: listening without the wake word")
            listens.yield()
        }
    }

    /// Plays HA's announcement apart from the connection (which goes on reading), then tells
    /// HA (`AnnounceFinished`, success when it played). When and where it plays, whether it
    /// waits for a round trip, and the listening that follows a `start_conversation`, are the
    /// assistant's decisions (``AssistantService/announce(_:startConversation:)``).
    func announce(
        _ announcement: ESPHomeAnnouncement, from peer: Int, push: @escaping Push,
        play: @escaping @Sendable (ESPHomeAnnouncement) async -> Bool
    ) {
        announcements += 1
        let number = announcements
        // Runs on this actor once `announce` returns, so it is kept before it can end.
        announcing[number] = Task {
            let played = await play(announcement)
            self.announced(number, played: played, from: peer, push: push)
        }
    }

    /// Stops the announcements under way (their media fetch is cancelled; one the assistant
    /// plays ends with the assistant) and returns once each has ended: the server's run ends
    /// after them.
    public func finishAnnouncements() async {
        let tasks = Array(announcing.values)
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func announced(_ number: Int, played: Bool, from peer: Int, push: Push) {
        announcing[number] = nil
        push(Self.announceFinished(success: played))
        logger.info("esphome: client \(peer)'s announcement \(played ? "played" : "not played")")
    }

    private static func announceFinished(success: Bool) -> ESPHomeFrame {
        var finished = ESPHomeVoiceAssistantAnnounceFinished()
        finished.success = success
        return (try? finished.frame()) ?? ESPHomeFrame(.voiceAssistantAnnounceFinished)
    }

    /// HA's TTS could not be played: said in the log, and HA told the reply is over
    /// (AnnounceFinished(success=false)), so its satellite does not stay "responding".
    func replyUnplayable(_ error: any Error) {
        logger.warning("esphome: Home Assistant's TTS audio cannot be played: \(error)")
        guard let playing = playingFor else { return }
        playingFor = nil
        announceFinished(to: playing.peer, success: false)
    }

    private func announceFinished(to peer: Int, success: Bool) {
        guard let subscriber, subscriber.peer == peer else { return }
        subscriber.push(Self.announceFinished(success: success))
    }

    private func end(_ current: Run, throwing error: ESPHomeSatelliteError) {
        current.command.stopStreaming()
        if run?.number == current.number { run = nil }
        current.reply.finish(throwing: error)
    }
}
