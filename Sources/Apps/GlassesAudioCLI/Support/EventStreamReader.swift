import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// URLSession's delegate for `/api/events`: bytes as they arrive go through the SSE parser
/// into the stream; the end of the response ends it (an HTTP error or a lost daemon as an error).
final class EventStreamReader: NSObject, URLSessionDataDelegate, Sendable {
    private let continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
    private let parser = Mutex(ServerSentEvent.Parser())
    private let failure = Mutex<(status: Int, body: Data)?>(nil)
    private let baseURL: String

    init(continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation, baseURL: String) {
        self.continuation = continuation
        self.baseURL = baseURL
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status != 200 { failure.withLock { $0 = (status, Data()) } }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let failed = failure.withLock { state -> Bool in
            guard state != nil else { return false }
            state?.body.append(data)
            return true
        }
        guard !failed else { return }
        let events = parser.withLock { $0.feed(String(decoding: data, as: UTF8.self)) }
        for event in events { continuation.yield(event) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let (status, body) = failure.withLock({ $0 }) {
            continuation.finish(throwing: CLIError("glasses-audiod: \(DaemonClient.errorMessage(body, status: status))"))
        } else if let error, (error as? URLError)?.code != .cancelled {
            continuation.finish(
                throwing: CLIError("no glasses-audiod answers at \(baseURL) (\(error.localizedDescription)): start it with 'glasses-audiod', or give --url"))
        } else {
            continuation.finish()
        }
    }
}
