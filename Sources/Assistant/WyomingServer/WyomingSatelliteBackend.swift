public import Assistant

/// Home Assistant as the assistant backend: each command goes out over the satellite
/// connection (``WyomingSatelliteLink``) and HA's TTS audio comes back as the reply's audio;
/// `played` is sent when the glasses have played it.
public struct WyomingSatelliteBackend: AssistantBackend {
    public let name = "home-assistant"
    public let link: WyomingSatelliteLink
    /// How long Home Assistant may take from the end of the command to the end of its TTS audio.
    public var timeout: Duration

    public init(link: WyomingSatelliteLink, timeout: Duration = .seconds(12)) {
        self.link = link
        self.timeout = timeout
    }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        let timeout = timeout
        return try await withThrowingTaskGroup(of: AssistantReply?.self) { group in
            group.addTask { try await link.send(utterance) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let reply = first else {
                throw WyomingSatelliteError.timedOut(seconds: Int(timeout.components.seconds))
            }
            return reply
        }
    }

    public func replyPlayed(_ reply: AssistantReply) async {
        await link.replyPlayed()
    }
}
