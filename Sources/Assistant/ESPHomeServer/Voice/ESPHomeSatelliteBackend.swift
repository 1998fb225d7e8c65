public import Assistant
import AudioCore
import ESPHomeAPI
public import RemoteAudio

/// Home Assistant's voice pipeline over the ESPHome API as the assistant backend: a command
/// streams to HA as it is spoken (``ESPHomeVoiceSatellite``), HA's transcript and TTS come
/// back as the reply (the TTS fetched from HA's URL and decoded; HA's answer text spoken
/// when it sends no URL), and HA hears when the glasses have played it.
public struct ESPHomeSatelliteBackend: AssistantBackend {
    public let name = "home-assistant-esphome"
    public let satellite: ESPHomeVoiceSatellite
    public let fetcher: RemoteAudioFetcher

    public init(satellite: ESPHomeVoiceSatellite, fetcher: RemoteAudioFetcher = RemoteAudioFetcher()) {
        self.satellite = satellite
        self.fetcher = fetcher
    }

    public func openLiveCommand(_ start: LiveCommandStart) async -> (any LiveCommand)? {
        await satellite.openLive(start)
    }

    public func respond(to utterance: Utterance) async throws -> AssistantReply {
        try await utterance.answered(timedOut: { ESPHomeSatelliteError.timedOut(seconds: Int($0.components.seconds)) }) { [satellite, fetcher] in
            let reply = try await satellite.respond(to: utterance)
            guard let url = reply.ttsURL else { return AssistantReply(heard: reply.heard, answer: reply.answer) }
            do {
                let audio = try await fetcher.fetch(url)
                return AssistantReply(
                    heard: reply.heard, answer: reply.answer, audio: audio.format.channels == 1 ? audio : ChannelMixer.mixdownToMono(audio))
            } catch {
                await satellite.replyUnplayable(error)
                throw ESPHomeSatelliteError.ttsUnplayable("\(error)")
            }
        }
    }

    public func replyPlayed(_ reply: AssistantReply) async {
        await satellite.replyPlayed()
    }
}
