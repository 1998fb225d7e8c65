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
        do {
            let said = try await RoutedSpeech.say(text, settings: context.assistantState.speech, on: context.routes, wait: .seconds(10))
            return Spoken(success: true, seconds: said.spoken.inSeconds, sink: said.sink)
        } catch .noRoute(let error) {
            throw APIError(.conflict, "the speaker route is not available: \(error)")
        } catch {
            throw APIError(.conflict, "the speech could not be played: \(error)")
        }
    }
}
