import Assistant
import AssistantService
import AudioBackend
import AudioCore
import BackendSelection
import ESPHomeServer
import Logging
import RemoteAudio
import RouteService
import Routing
import SpeechPlayback

/// Plays Home Assistant's announcements on the glasses: the pre-announce sound and the media
/// fetched from their URLs, then played on the route the route engine gives the announcement's
/// use: playback alone (the media profile, A2DP on the glasses) when no answer is expected,
/// capture and playback (the voice profile, HFP) when a conversation follows, so the mic is
/// ready without a profile switch after it. The glasses take one session at a time, and the
/// listening assistant holds one: it lets its route go for the announcement (it sleeps) and
/// takes it again after (it wakes), unless it was asleep already. During a round trip (a
/// command captured, answered or spoken) the announcement is refused.
struct ESPHomeAnnouncements {
    let routes: RouteService
    let assistant: AssistantService
    let fetcher = RemoteAudioFetcher()
    let logger: Logger
    static let routeWait: Duration = .seconds(10)

    /// Whether it was played to its end.
    func play(_ announcement: ESPHomeAnnouncement) async -> Bool {
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
        let phase = await assistant.phase
        guard [.idle, .listening, .asleep].contains(phase) else {
            logger.warning("esphome: the announcement is refused: the assistant is busy (\(phase)): it takes the glasses again after its round trip")
            return false
        }
        if phase != .asleep { await assistant.sleep() }
        let played = await play(sounds, startConversation: announcement.startConversation)
        if phase != .asleep { await assistant.wake() }
        return played
    }

    private func play(_ sounds: [AudioBuffer], startConversation: Bool) async -> Bool {
        let format = PCMFormat(sampleRate: 16000, channels: 1)
        let chunks = AsyncThrowingStream<AudioBuffer, any Error> { continuation in
            for sound in sounds { continuation.yield(sound) }
            continuation.finish()
        }
        do {
            if startConversation {
                let ready = try await routes.startSession(
                    SessionRequest(usage: .captureAndPlayback, format: SessionFormat(sampleRate: 16000, channels: 1), deviceWait: .upTo(Self.routeWait)))
                logger.info("esphome: announcement on \(ready.route.description) (a conversation follows)")
                do {
                    guard let stream = await routes.playback(for: ready.id) else {
                        throw StreamSessionError.internalError("a voice session without a speaker")
                    }
                    _ = try await SpeechPlayer.play(chunks, to: stream)
                } catch {
                    await routes.stopSession(ready.id)
                    throw error
                }
                await routes.stopSession(ready.id)
            } else {
                let playback = try await RoutedStreams.playback(on: routes, sink: nil, format: format, wait: Self.routeWait)
                logger.info("esphome: announcement on \(playback.sink) (no answer expected)")
                _ = try await SpeechPlayer.play(chunks, to: playback.stream)
                if let session = playback.session { await routes.stopSession(session) } else { await playback.stream.close() }
            }
            return true
        } catch {
            logger.warning("esphome: the announcement could not be played on the glasses: \(error)")
            return false
        }
    }
}
