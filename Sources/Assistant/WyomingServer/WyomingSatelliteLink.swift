import Assistant
public import AudioCore
public import Wyoming

/// The satellite's side of its Home Assistant connection: which client runs the satellite
/// (the last to send `run-satellite`, until it pauses or leaves), and the command now with it:
/// events out, then the transcript, the reply text and the TTS audio back.
public actor WyomingSatelliteLink {
    public typealias Send = @Sendable (WyomingEvent) async throws -> Void

    private struct Peer {
        var send: Send
        var paused: Bool
    }

    /// The command with Home Assistant, and what has come back for it.
    private struct PendingRun {
        var peer: Int
        var number: Int
        var heard = ""
        var answer = ""
        var ttsFormat: WyomingAudioFormat?
        var tts: [UInt8] = []
        /// Where the reply goes; it may come before the sender waits for it.
        var reply: AsyncThrowingStream<AssistantReply, any Error>.Continuation
    }

    public let port: Int
    private var peers: [Int: Peer] = [:]
    private var running: Int?
    private var pending: PendingRun?
    /// The peer whose reply is playing (gets `played`).
    private var playingFor: Int?
    private var commands = 0
    /// The command streamed as it is spoken, from its capture's start to its hand-over.
    private var live: (number: Int, command: WyomingLiveCommand, replies: AsyncThrowingStream<AssistantReply, any Error>)?
    /// Audio from the running client outside any command: an announcement being received.
    private var incoming: (peer: Int, format: WyomingAudioFormat?, bytes: [UInt8])?
    /// Home Assistant's answer to a command that was already given up came (its transcript or
    /// text): the audio that follows is that late reply, not an announcement, and is dropped.
    private var lateReply = false
    /// Every announcement received, for the one who plays them (``announcementPlayed(for:)`` after each).
    public nonisolated let announcements: AsyncStream<WyomingAnnouncement>
    private let announcing: AsyncStream<WyomingAnnouncement>.Continuation
    /// The longest announcement kept (seconds of audio); the rest is dropped with a log line.
    static let announcementLimit = 300

    public init(port: Int) {
        self.port = port
        (announcements, announcing) = AsyncStream.makeStream(of: WyomingAnnouncement.self, bufferingPolicy: .bufferingNewest(4))
    }

    /// Whether a client runs the satellite now.
    public var isConnected: Bool { running.map { peers[$0]?.paused == false } ?? false }

    // MARK: - From the connections

    func runSatellite(peer: Int, send: @escaping Send) {
        peers[peer] = Peer(send: send, paused: false)
        running = peer
    }

    func pauseSatellite(peer: Int) {
        peers[peer]?.paused = true
        if pending?.peer == peer { finish(throwing: .paused) }
    }

    func disconnected(peer: Int) {
        peers[peer] = nil
        if running == peer { running = nil }
        if playingFor == peer { playingFor = nil }
        if pending?.peer == peer { finish(throwing: .disconnected) }
    }

    /// An event from the running client; `true` when it belonged to the command in progress.
    @discardableResult
    func received(_ event: WyomingEvent, from peer: Int) -> Bool {
        guard var run = pending, run.peer == peer else { return receivedOutsideCommand(event, from: peer) }
        switch event {
        case .transcript(let text): run.heard = text
        case .synthesize(let text): run.answer = text
        case .audioStart(let format, _):
            run.ttsFormat = format
            run.tts = []
        case .audioChunk(let format, _, let audio):
            if run.ttsFormat == nil { run.ttsFormat = format }
            run.tts += audio
        case .audioStop:
            pending = run
            finishWithReply()
            return true
        case .error(let text, _):
            finish(throwing: .pipelineFailed(text))
            return true
        default:
            return false
        }
        pending = run
        return true
    }

    /// Home Assistant's `assist_satellite.announce` to a Wyoming satellite: `audio-start`,
    /// `audio-chunk`s and `audio-stop` with no command under way; it waits for `played`.
    private func receivedOutsideCommand(_ event: WyomingEvent, from peer: Int) -> Bool {
        guard peer == running else { return false }
        switch event {
        case .transcript, .synthesize:
            lateReply = true  // its TTS audio follows; an error has none
            return false
        case .audioStart(let format, _):
            incoming = lateReply ? nil : (peer, format, [])
        case .audioChunk(let format, _, let audio):
            guard var announcement = incoming, announcement.peer == peer else { return false }
            if announcement.format == nil { announcement.format = format }
            let limit = Self.announcementLimit * format.rate * format.width * format.channels
            announcement.bytes += audio.prefix(max(0, limit - announcement.bytes.count))
            incoming = announcement
        case .audioStop:
            defer { lateReply = false }
            guard let announcement = incoming, announcement.peer == peer else { return false }
            incoming = nil
            guard let format = announcement.format, !announcement.bytes.isEmpty else { return true }
            announcing.yield(WyomingAnnouncement(peer: peer, audio: Self.monoAudio(announcement.bytes, format)))
        default:
            return false
        }
        return true
    }

    /// The announcement from `peer` was played to the end: tell Home Assistant (`played`).
    public func announcementPlayed(for announcement: WyomingAnnouncement) async {
        guard let client = peers[announcement.peer] else { return }
        try? await client.send(.played)
    }

    // MARK: - From the backend

    /// Opens a command streamed to the running client as it is spoken; nil when none runs the
    /// satellite or a command is already with it (the hand-over then says why).
    func openLive(_ start: LiveCommandStart) -> (any LiveCommand)? {
        guard let peer = running, let client = peers[peer], !client.paused, pending == nil else { return nil }
        let (replies, reply) = AsyncThrowingStream.makeStream(of: AssistantReply.self)
        commands += 1
        let number = commands
        pending = PendingRun(peer: peer, number: number, reply: reply)
        let command = WyomingLiveCommand(start, send: client.send, onClose: { [weak self] in await self?.closeLive(number) })
        live = (number, command, replies)
        return command
    }

    /// A streamed command's capture ended without a command: Home Assistant's answer, if it
    /// still sends one, is dropped.
    private func closeLive(_ number: Int) {
        guard live?.number == number else { return }
        live = nil
        guard let run = pending, run.number == number else { return }
        pending = nil
        run.reply.finish()
    }

    /// Sends one command as a local-wake satellite does and waits for Home Assistant's reply;
    /// a command already streamed as it was spoken (``openLive(_:)``) is ended instead.
    func send(_ utterance: Utterance) async throws -> AssistantReply {
        if let live {
            self.live = nil
            defer { if pending?.number == live.number { pending = nil } }
            await live.command.end()
            for try await answer in live.replies { return answer }
            throw WyomingSatelliteError.timedOut(seconds: 0)  // cancelled: the backend's timeout
        }
        guard let peer = running, let client = peers[peer] else { throw WyomingSatelliteError.notConnected(port: port) }
        guard !client.paused else { throw WyomingSatelliteError.paused }
        guard pending == nil else { throw WyomingSatelliteError.busy }
        let (replies, reply) = AsyncThrowingStream.makeStream(of: AssistantReply.self)
        commands += 1
        let number = commands
        pending = PendingRun(peer: peer, number: number, reply: reply)
        defer { if pending?.number == number { pending = nil } }
        do {
            for event in Self.events(for: utterance) { try await client.send(event) }
        } catch {
            throw WyomingSatelliteError.disconnected
        }
        for try await answer in replies { return answer }
        throw WyomingSatelliteError.timedOut(seconds: 0)  // cancelled: the backend's timeout
    }

    /// The reply finished playing: tell Home Assistant (`played`).
    func replyPlayed() async {
        guard let peer = playingFor, let client = peers[peer] else { return }
        playingFor = nil
        try? await client.send(.played)
    }

    private func finishWithReply() {
        guard let run = pending else { return }
        pending = nil
        var audio: AudioBuffer?
        if let format = run.ttsFormat, !run.tts.isEmpty { audio = Self.monoAudio(run.tts, format) }
        playingFor = run.peer
        run.reply.yield(AssistantReply(heard: run.heard, answer: run.answer, audio: audio))
    }

    /// Home Assistant's 16-bit audio as mono samples.
    private static func monoAudio(_ bytes: [UInt8], _ format: WyomingAudioFormat) -> AudioBuffer {
        let samples = bytes.withUnsafeBytes { PCMConversion.floats(fromS16LE: $0) }
        let buffer = AudioBuffer(format: PCMFormat(sampleRate: format.rate, channels: format.channels), samples: samples)
        return format.channels == 1 ? buffer : ChannelMixer.mixdownToMono(buffer)
    }

    private func finish(throwing error: WyomingSatelliteError) {
        guard let run = pending else { return }
        pending = nil
        run.reply.finish(throwing: error)
    }

    /// What a local-wake satellite sends for one command (wyoming-satellite's order: the
    /// detection, then `run-pipeline` from ASR to TTS, then the audio with the voice events).
    static func events(for utterance: Utterance, chunkFrames: Int = 1024) -> [WyomingEvent] {
        let audio = utterance.audio.format.channels == 1 ? utterance.audio : ChannelMixer.mixdownToMono(utterance.audio)
        let rate = audio.format.sampleRate
        let format = WyomingAudioFormat(rate: rate)
        var events = WyomingLiveCommand.opening(wakeWord: utterance.wakeWord, format: format) + [.voiceStarted(timestamp: 0)]
        var start = 0
        while start < audio.samples.count {
            let end = min(audio.samples.count, start + chunkFrames)
            let bytes = PCMConversion.s16le(Array(audio.samples[start..<end]))
            events.append(.audioChunk(format, timestamp: start * 1000 / rate, audio: bytes))
            start = end
        }
        let milliseconds = audio.samples.count * 1000 / max(rate, 1)
        events += [.voiceStopped(timestamp: milliseconds), .audioStop(timestamp: milliseconds)]
        return events
    }
}

/// An announcement Home Assistant sent to the satellite, to be played and answered with `played`.
public struct WyomingAnnouncement: Sendable {
    public let peer: Int
    /// Mono, at the rate Home Assistant sent (22050 Hz from its announce).
    public let audio: AudioBuffer
}
