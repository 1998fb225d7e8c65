public import Assistant
import ESPHomeAPI

/// Home Assistant's voice pipeline over the ESPHome API as the assistant backend: a command
/// streams to HA as it is spoken (``ESPHomeVoiceSatellite``), HA's transcript and answer come
/// back as the reply, and HA hears when the glasses have played it.
public struct ESPHomeSatelliteBackend: AssistantBackend {
    public let name = "home-assistant-esphome"
    public let satellite: ESPHomeVoiceSatellite

    public init(satellite: ESPHomeVoiceSatellite) { self.satellite = satellite }

    public func openLiveCommand(_ start: LiveCommandStart) async -> (any LiveCommand)? {
        await satellite.openLive(start)
    }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        try await utterance.answered(timedOut: { ESPHomeSatelliteError.timedOut(seconds: Int($0.components.seconds)) }) { [satellite] in
            let reply = try await satellite.respond(to: utterance)
            return AssistantReply(heard: reply.heard, answer: reply.answer)
        }
    }

    public func replyPlayed(_ reply: AssistantReply) async {
        await satellite.replyPlayed()
    }
}
