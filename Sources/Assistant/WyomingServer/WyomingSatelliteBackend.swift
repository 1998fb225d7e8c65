public import Assistant

/// Home Assistant as the assistant backend: each command goes out over the satellite
/// connection (``WyomingSatelliteLink``) and HA's TTS audio comes back as the reply's audio;
/// `played` is sent when the glasses have played it. Home Assistant has the command's
/// ``Utterance/timeLimit`` (the assistant's reply timeout) to answer, no timeout of its own.
public struct WyomingSatelliteBackend: AssistantBackend {
    public let name = "home-assistant"
    public let link: WyomingSatelliteLink

    public init(link: WyomingSatelliteLink) { self.link = link }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        try await utterance.answered(timedOut: { WyomingSatelliteError.timedOut(seconds: Int($0.components.seconds)) }) { [link] in
            try await link.send(utterance)
        }
    }

    /// Home Assistant takes the command as it is spoken, when a client runs the satellite.
    public func openLiveCommand(_ start: LiveCommandStart) async -> (any LiveCommand)? {
        await link.openLive(start)
    }

    public func replyPlayed(_ reply: AssistantReply) async {
        await link.replyPlayed()
    }
}
