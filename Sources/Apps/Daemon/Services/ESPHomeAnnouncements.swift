import AssistantService
import AudioCore
import ESPHomeServer
import Logging
import RemoteAudio

/// Plays Home Assistant's announcements on the glasses: the pre-announce sound and the media
/// fetched from their URLs, joined, then given to the assistant, which decides where and when
/// (``AssistantService/announce(_:startConversation:)``: one-way with nothing held on a
/// speaker route of its own, which stays on A2DP; on the voice route when a conversation
/// follows or it already listens; after a round trip under way; refused asleep). The media
/// player entity's "play media" takes the same path, as a one-way announcement.
struct ESPHomeAnnouncements {
    let assistant: AssistantService
    let fetcher = RemoteAudioFetcher()
    let logger: Logger

    /// Whether it was played to its end, at `gain` (0...1: the media player's volume).
    /// Cancelling the calling task stops it (the fetch, or the assistant's playback).
    func play(_ announcement: ESPHomeAnnouncement, gain: Float = 1) async -> Bool {
        var sounds: [AudioBuffer] = []
        for url in [announcement.preannounceURL, announcement.mediaURL].compactMap({ $0 }) {
            do {
                let audio = try await fetcher.fetch(url)
                sounds.append(audio.format.channels == 1 ? audio : ChannelMixer.mixdownToMono(audio))
            } catch {
                logger.warning("esphome: the announcement's audio cannot be played: \(error)")
                if url == announcement.mediaURL { return false }  // a missing pre-announce sound is skipped
            }
        }
        guard let rate = sounds.last?.format.sampleRate else { return false }
        var samples: [Float] = []
        for sound in sounds {
            do {
                samples += try Resampler.resample(sound, to: rate).samples
            } catch {
                logger.warning("esphome: the announcement's audio cannot be played: \(error)")
                return false
            }
        }
        let audio = AudioBuffer(format: PCMFormat(sampleRate: rate, channels: 1), samples: gain == 1 ? samples : samples.map { $0 * gain })
        return await assistant.announce(audio, startConversation: announcement.startConversation)
    }
}
