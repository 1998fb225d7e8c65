import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to a running glasses-audiod over its HTTP API: JSON requests, and its server-sent
/// events. A daemon that does not answer, or answers with an error, becomes a ``CLIError``.
struct DaemonClient: Sendable {
    let baseURL: String
    let key: String

    /// One JSON request; returns the body of a 2xx answer.
    func send(_ method: String, _ path: String, body: [String: any Sendable]? = nil) async throws -> Data {
        guard let url = URL(string: baseURL + path) else { throw CLIError("'\(baseURL + path)' is not a URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 30
        request.setValue(key, forHTTPHeaderField: "X-API-Key")
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw CLIError("no glasses-audiod answers at \(baseURL) (\(error.localizedDescription)): start it with 'glasses-audiod', or give --url")
        }
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        try Self.checkIsDaemon(http, baseURL: baseURL)
        guard (200..<300).contains(status) else { throw CLIError("glasses-audiod: \(Self.errorMessage(data, status: status))") }
        return data
    }

    /// Every answer of glasses-audiod names it in `Server`; another HTTP server's page is not
    /// printed as if it were the daemon's.
    static func checkIsDaemon(_ response: HTTPURLResponse?, baseURL: String) throws {
        let server = response?.value(forHTTPHeaderField: "Server")
        guard server != "glasses-audiod" else { return }
        let what = server.map { "'\(String($0.prefix(60)))'" } ?? "a server that does not name itself"
        throw CLIError(
            "\(baseURL) is not glasses-audiod (it answers as \(what)): give the daemon's address with --url "
                + "(default http://127.0.0.1:8742)")
    }

    /// Decodes a 2xx answer as a JSON object.
    func object(_ method: String, _ path: String, body: [String: any Sendable]? = nil) async throws -> [String: Any] {
        let data = try await send(method, path, body: body)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CLIError("glasses-audiod answered \(path) with something that is not a JSON object")
        }
        return object
    }

    static func errorMessage(_ data: Data, status: Int) -> String {
        let message = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["error"] as? String
        return "\(message ?? String(decoding: data.prefix(200), as: UTF8.self)) (HTTP \(status))"
    }

    /// The daemon's events from now on (or after `lastEventID`), until it closes the stream.
    func events(after lastEventID: Int64? = nil) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        guard let url = URL(string: baseURL + "/api/events") else {
            return AsyncThrowingStream { $0.finish(throwing: CLIError("'\(baseURL)/api/events' is not a URL")) }
        }
        var request = URLRequest(url: url)
        request.setValue(key, forHTTPHeaderField: "X-API-Key")
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.timeoutInterval = 365 * 24 * 3600
        if let lastEventID { request.setValue("\(lastEventID)", forHTTPHeaderField: "Last-Event-ID") }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self, throwing: (any Error).self)
        let reader = EventStreamReader(continuation: continuation, baseURL: baseURL)
        let session = URLSession(configuration: .default, delegate: reader, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return stream
    }
}
