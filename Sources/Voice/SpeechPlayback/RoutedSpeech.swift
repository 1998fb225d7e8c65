import AudioBackend
import AudioCore
import BackendSelection
public import RouteService
public import Speech

/// Speaks text where the route engine says the speaker is (the glasses' speaker route, or the
/// server's default with no glasses), on the engine the settings name: the one speaking path
/// of the CLI's `say` and the daemon's `/api/speak`.
public enum RoutedSpeech {
    /// What was said, and where.
    public struct Said: Sendable {
        public var spoken: Duration
        public var sink: String
    }

    /// Why nothing, or not all, was said.
    public enum Failure: Error, CustomStringConvertible {
        /// The engine named is unknown, or its settings are not.
        case engine(SpeechError)
        /// No speaker route came (no glasses, a profile that did not switch, …).
        case noRoute(any Error)
        /// The route came but the speech could not be played on it.
        case playback(any Error)

        public var description: String {
            switch self {
            case .engine(let error): "\(error)"
            case .noRoute(let error): "\(error)"
            case .playback(let error): "\(error)"
            }
        }
    }

    /// Says `text` and lets the route go again; `firstChunk` is called when the first chunk of
    /// speech is ready.
    public static func say(
        _ text: String, settings: SpeechSettings, on routes: RouteService, wait: Duration, firstChunk: @Sendable @escaping () -> Void = {}
    ) async throws(Failure) -> Said {
        let engine: any SpeechSynthesizer
        do { engine = try SpeechEngines.engine(named: settings.engine) } catch { throw .engine(error) }
        let playback: RoutedPlayback
        do {
            playback = try await RoutedStreams.playback(on: routes, sink: nil, format: PCMFormat(sampleRate: 16000, channels: 1), wait: wait)
        } catch {
            throw .noRoute(error)
        }
        let report: SpeechPlayer.Report
        do {
            report = try await SpeechPlayer.play(engine.speak(text, settings: settings), to: playback.stream, firstChunk: firstChunk)
        } catch {
            await release(playback, on: routes)
            throw .playback(error)
        }
        await release(playback, on: routes)
        return Said(spoken: report.spoken, sink: playback.sink)
    }

    private static func release(_ playback: RoutedPlayback, on routes: RouteService) async {
        if let session = playback.session {
            await routes.stopSession(session)
        } else {
            await playback.stream.close()
        }
    }
}
