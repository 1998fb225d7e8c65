import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TestKit

/// `glasses-audiod` started as a real process on a free port with its own data directory,
/// and a small HTTP client for it (URLSession: real requests over loopback).
final class DaemonProcess: Sendable {
    static let binary = Run.productPath("glasses-audiod")

    let child: Child
    let port: Int
    let key: String
    let dataDirectory: String
    private let stopped = Mutex(false)

    struct Reply: Sendable {
        var status: Int
        var body: String
        var contentType: String?

        /// The body as a JSON object (empty if it is not one).
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var jsonArray: [[String: Any]] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [[String: Any]] ?? [] }
        var error: String { json["error"] as? String ?? "" }
    }

    private init(child: Child, port: Int, key: String, dataDirectory: String) {
        self.child = child
        self.port = port
        self.key = key
        self.dataDirectory = dataDirectory
    }

    /// Starts the daemon and waits until its HTTP API listens.
    static func start(
        dataDirectory: String, backend: String = "simulated", listen: Bool = false, arguments: [String] = [],
        environment: [String: String] = [:]
    ) async throws -> DaemonProcess {
        try await offCooperativePool {
            let child = try Child(
                binary,
                ["--backend", backend, "--data-dir", dataDirectory, "--http-port", "0", "--wyoming-port", "0", "--esphome-port", "0", "--listen", "\(listen)"]
                    + arguments,
                environment: environment)
            let marker = "HTTP API listening on http://127.0.0.1:"
            guard child.waitForError(marker) else {
                let output = child.finish(hangGuard: .seconds(5))
                throw TestFailure("glasses-audiod did not start (exit \(output.status)): \(output.stderr)")
            }
            let tail = child.stderrSoFar.components(separatedBy: marker)[1]
            guard let port = Int(tail.prefix { $0.isNumber }) else { throw TestFailure("no port in: \(child.stderrSoFar)") }
            let key = try String(contentsOfFile: dataDirectory + "/api_key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            return DaemonProcess(child: child, port: port, key: key, dataDirectory: dataDirectory)
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Which X-API-Key a request carries.
    enum Key: Sendable {
        case right, missing
        case value(String)
    }

    /// One request, with the right key unless told otherwise.
    func request(_ method: String, _ path: String, body: String? = nil, key: Key = .right, headers: [String: String] = [:])
        async throws -> Reply
    {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        switch key {
        case .right: request.setValue(self.key, forHTTPHeaderField: "X-API-Key")
        case .value(let given): request.setValue(given, forHTTPHeaderField: "X-API-Key")
        case .missing: break
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return Reply(
            status: http?.statusCode ?? 0, body: String(decoding: data, as: UTF8.self),
            contentType: http?.value(forHTTPHeaderField: "Content-Type"))
    }

    /// Follows `/api/events` with curl (a real SSE client), from `lastEventID` if given.
    func followEvents(lastEventID: Int64? = nil) throws -> Child {
        var arguments = ["-sN", "-H", "X-API-Key: \(key)", baseURL + "/api/events"]
        if let lastEventID { arguments += ["-H", "Last-Event-ID: \(lastEventID)"] }
        return try Child("curl", arguments)
    }

    /// A test that ended early (a failed `#require`) leaves no daemon behind.
    deinit {
        if !stopped.withLock({ $0 }) {
            child.signal(SIGKILL)
            _ = child.finish(hangGuard: .seconds(5))
        }
    }

    /// Sends `signal` and waits for the daemon to end.
    func stop(_ signal: Int32 = SIGTERM) async throws -> Run.Output {
        stopped.withLock { $0 = true }
        child.signal(signal)
        return try await offCooperativePool { [child] in child.finish(hangGuard: .seconds(30)) }
    }
}
