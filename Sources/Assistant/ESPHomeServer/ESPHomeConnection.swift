import ESPHomeAPI
import Logging

/// One client's bytes through the plaintext framing and its ``ESPHomeSession``; the actions
/// carried out against the daemon, the answers collected for one write.
struct ESPHomeConnection {
    struct Reply {
        var bytes: [UInt8] = []
        var close = false
    }

    let peer: Int
    let address: String
    var session: ESPHomeSession
    let controls: ESPHomeDeviceControls
    let media: ESPHomeMediaPlayback
    let voice: ESPHomeVoiceSatellite
    /// Queues a frame for this connection from elsewhere (the voice side's requests and audio).
    let push: @Sendable (ESPHomeFrame) -> Void
    let logger: Logger
    private var decoder = ESPHomePlaintextDecoder(maximumBodyLength: ESPHomeServer.maximumBodyLength)
    /// The encrypted transport, when the server has a key (then plaintext clients are refused).
    private var noise: ESPHomeNoiseTransport?

    init(
        peer: Int, address: String, session: ESPHomeSession, noise: ESPHomeNoiseTransport?, controls: ESPHomeDeviceControls,
        media: ESPHomeMediaPlayback, voice: ESPHomeVoiceSatellite, push: @escaping @Sendable (ESPHomeFrame) -> Void, logger: Logger
    ) {
        self.peer = peer
        self.address = address
        self.session = session
        self.noise = noise
        self.controls = controls
        self.media = media
        self.voice = voice
        self.push = push
        self.logger = logger
    }

    /// What reaches the connection: the client's bytes, a frame the voice side sends, or word
    /// that the device's state changed by itself (a media ended).
    enum Input: Sendable {
        case bytes([UInt8])
        case push(ESPHomeFrame)
        case refresh
    }

    mutating func received(_ input: Input) async -> Reply {
        switch input {
        case .bytes(let bytes): return await received(bytes)
        case .push(let frame):
            var reply = Reply()
            await carryOut([.send(frame)], into: &reply)
            return reply
        case .refresh:
            var reply = Reply()
            await carryOut(session.update(await deviceState()), into: &reply)
            return reply
        }
    }

    /// The daemon's state with the speaker's, as the entities show it.
    private func deviceState() async -> ESPHomeDeviceState {
        await media.applied(to: await controls.state())
    }

    mutating func received(_ bytes: [UInt8]) async -> Reply {
        if noise != nil { return await receivedEncrypted(bytes) }
        decoder.append(bytes)
        var reply = Reply()
        do {
            while let frame = try decoder.next() {
                await hand(frame, into: &reply)
                if reply.close { return reply }
            }
        } catch {
            logger.warning("esphome: client \(peer) (\(address)): \(error); closing the connection")
            if case .badIndicator = error {
                // What ESPHome answers: a plaintext frame start and the reason, so an encrypted
                // client reports "the device is using plaintext".
                reply.bytes += [0x00] + Array("Bad indicator byte".utf8)
            }
            reply.close = true
        }
        return reply
    }

    private mutating func receivedEncrypted(_ bytes: [UInt8]) async -> Reply {
        guard var transport = noise else { return Reply() }
        let output = transport.receive(bytes)
        noise = transport
        var reply = Reply(bytes: output.bytes)
        for frame in output.frames {
            await hand(frame, into: &reply)
            if reply.close { return reply }
        }
        if let failure = output.failure {
            logger.warning("esphome: client \(peer) (\(address)): \(failure); closing the connection")
            reply.close = true
        }
        return reply
    }

    /// `frame` to the session; the wake-word configuration is answered and decided on the
    /// daemon's state as it is now (the heads ready and the wake word in force change while a
    /// client stays connected), so the session hears that state first.
    private mutating func hand(_ frame: ESPHomeFrame, into reply: inout Reply) async {
        if frame.type == .voiceAssistantConfigurationRequest || frame.type == .voiceAssistantSetConfiguration {
            await carryOut(session.update(await deviceState()), into: &reply)
        }
        await carryOut(session.receive(frame), into: &reply)
    }

    private mutating func carryOut(_ actions: [ESPHomeSessionAction], into reply: inout Reply) async {
        for action in actions {
            switch action {
            case .send(let frame):
                if var transport = noise {
                    reply.bytes += transport.encrypt(frame)
                    noise = transport
                } else {
                    reply.bytes += ESPHomePlaintextEncoder.encode(frame)
                }
            case .log(let level, let line):
                logger.log(level: level.loggerLevel, "esphome: client \(peer) (\(address)): \(line)")
            case .setMicrophoneMuted(let muted):
                logger.info("esphome: client \(peer) \(muted ? "mutes" : "unmutes") the microphone")
                await controls.setMicrophoneMuted(muted)
                let pushed = session.update(await deviceState())
                await carryOut(pushed, into: &reply)
            case .media(let command):
                await media.carryOut(command)
                await carryOut(session.update(await deviceState()), into: &reply)
            case .setWakeWord(let option):
                await controls.setWakeWord(option)
                await carryOut(session.update(await deviceState()), into: &reply)
            case .voiceSubscribed(let subscribed):
                if subscribed {
                    await voice.subscribed(peer: peer, push: push)
                } else {
                    await voice.disconnected(peer: peer)
                }
            case .voice(.announce(let request)):
                let announcement = ESPHomeAnnouncement(
                    preannounceURL: request.preannounceMediaID.isEmpty ? nil : request.preannounceMediaID, mediaURL: request.mediaID,
                    text: request.text, startConversation: request.startConversation)
                await voice.announce(announcement, from: peer, push: push, play: controls.announce)
            case .voice(.timer(let event)):
                for change in event.voiceTimerChanges { await controls.timer(change) }
            case .voice(let message):
                await voice.received(message, from: peer)
            case .close:
                reply.close = true
            }
        }
    }
}

extension ESPHomeSessionLogLevel {
    var loggerLevel: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}
