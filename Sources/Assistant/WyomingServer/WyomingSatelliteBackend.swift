public import Assistant
import AudioCore

/// Home Assistant as the assistant backend: each command goes out over the satellite
/// connection (``WyomingSatelliteLink``) and HA's TTS audio comes back as the reply's audio;
/// `played` is sent when the glasses have played it. Home Assistant has the command's
/// ``Utterance/timeLimit`` (the assistant's reply timeout) to answer, no timeout of its own.
public struct WyomingSatelliteBackend: AssistantBackend {
    public let name = "home-assistant"
    public let link: WyomingSatelliteLink
    private let clock: ServiceClock

    public init(link: WyomingSatelliteLink, clock: ServiceClock = .continuous) {
        self.link = link
        self.clock = clock
    }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        guard let limit = utterance.timeLimit else { return try await link.send(utterance) }
        guard let reply = try await withTimeout(limit, clock: clock, { try await link.send(utterance) }) else {
            throw WyomingSatelliteError.timedOut(seconds: Int(limit.components.seconds))
        }
        return reply
    }

    public func replyPlayed(_ reply: AssistantReply) async {
        await link.replyPlayed()
    }
}
