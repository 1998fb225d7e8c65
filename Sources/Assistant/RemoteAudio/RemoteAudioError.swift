/// Why audio at a URL (Home Assistant's TTS, an announcement) could not be played.
public struct RemoteAudioError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not a URL this client can fetch.
        case badURL
        /// The server answered with a status other than 2xx.
        case status(Int)
        /// The request failed (refused, timed out, reset).
        case unreachable(String)
        /// Larger than the limit.
        case tooLarge(limit: Int)
        /// The body is not WAV or FLAC.
        case notAudio(String)
        /// WAV or FLAC that does not decode.
        case undecodable(String)

        public var description: String {
            switch self {
            case .badURL: "not an http(s) URL"
            case .status(let code): "the server answered HTTP \(code)"
            case .unreachable(let reason): "the request failed: \(reason)"
            case .tooLarge(let limit): "the audio is larger than \(limit / 1_000_000) MB"
            case .notAudio(let what): "not WAV or FLAC audio (\(what))"
            case .undecodable(let reason): reason
            }
        }
    }

    public var url: String
    public var problem: Problem

    public init(url: String, problem: Problem) {
        self.url = url
        self.problem = problem
    }

    public var description: String { "\(url): \(problem)" }
}
