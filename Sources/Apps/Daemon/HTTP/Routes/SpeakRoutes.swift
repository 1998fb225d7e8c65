import AudioBackend
import AudioCore
import BackendSelection
import Foundation
import Hummingbird
import RouteService
import Routing
import Speech
import SpeechPlayback
import Store

/// `POST /api/speak {"text"}`: says the text on the glasses' speaker through the route engine
/// (the route opens, the speech plays to its end, the route is let go), with the voice in the
/// settings. Answers when it has been played.
struct SpeakRoutes {
    let context: DaemonContext
    static let longestText = 1000

    struct SpeakBody: Decodable { var text: String }

    struct Spoken: Encodable {
        var success: Bool
        var seconds: Double
        var sink: String
    }

    func add(to router: Router<DaemonRequestContext>) {
        router.post("/api/speak") { request, _ in
            let body = try await JSONBody.decode(
                SpeakBody.self, from: request, limit: context.configuration.bodyLimit, example: #"{"text": "Hello"}"#)
            let text = body.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...Self.longestText).contains(text.count) else {
                throw APIError.badRequest("'text' must be 1...\(Self.longestText) characters (got \(text.count))")
            }
            return JSONResponse.make(try await speak(text))
        }
    }

    private func speak(_ text: String) async throws -> Spoken {
        let voice = context.assistantState.settings.voice
        let settings = SpeechSettings(rate: voice.rate, volume: voice.volume)
        let playback: RoutedPlayback
        do {
            playback = try await RoutedStreams.playback(
                on: context.routes, sink: nil, format: PCMFormat(sampleRate: 16000, channels: 1), wait: .seconds(10))
        } catch let error as StreamSessionError {
            throw APIError(.conflict, "the speaker route is not available: \(error)")
        }
        do {
            let report = try await SpeechPlayer.play(EspeakSpeech().speak(text, settings: settings), to: playback.stream)
            await release(playback)
            return Spoken(success: true, seconds: report.seconds, sink: playback.sink)
        } catch {
            await release(playback)
            throw APIError(.conflict, "the speech could not be played: \(error)")
        }
    }

    private func release(_ playback: RoutedPlayback) async {
        if let session = playback.session {
            await context.routes.stopSession(session)
        } else {
            await playback.stream.close()
        }
    }
}
