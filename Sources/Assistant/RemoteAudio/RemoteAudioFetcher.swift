public import AudioCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Fetches audio from a URL (Home Assistant's TTS proxy, an announcement's media) and decodes
/// it: one GET with an AsyncHTTPClient of its own, the body up to ``maximumBytes``.
public struct RemoteAudioFetcher: Sendable {
    /// An hour of 16 kHz s16 mono is 115 MB; TTS and announcements are far shorter.
    public var maximumBytes: Int
    public var timeout: Duration

    public init(maximumBytes: Int = 32_000_000, timeout: Duration = .seconds(30)) {
        self.maximumBytes = maximumBytes
        self.timeout = timeout
    }

    /// A server that refuses or cannot be reached fails the fetch at once (no retries until
    /// the deadline, AsyncHTTPClient's default): the reply is late enough already.
    private var configuration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(timeout.components.seconds))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    public func fetch(_ url: String) async throws(RemoteAudioError) -> AudioBuffer {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw RemoteAudioError(url: url, problem: .badURL)
        }
        let bytes: [UInt8]
        let contentType: String?
        do {
            (bytes, contentType) = try await HTTPClient.withHTTPClient(configuration: configuration) { client in
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(timeout.components.seconds))
                guard (200..<300).contains(Int(response.status.code)) else {
                    throw RemoteAudioError(url: url, problem: .status(Int(response.status.code)))
                }
                let body = try await response.body.collect(upTo: maximumBytes)
                return (Array(body.readableBytesView), response.headers.first(name: "content-type"))
            }
        } catch let error as RemoteAudioError {
            throw error
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw RemoteAudioError(url: url, problem: .tooLarge(limit: maximumBytes))
        } catch {
            throw RemoteAudioError(url: url, problem: .unreachable("\(error)"))
        }
        do {
            return try RemoteAudioDecoder.decode(bytes, contentType: contentType)
        } catch {
            throw RemoteAudioError(url: url, problem: error)
        }
    }
}
