import Foundation
import HTTPTypes
import Hummingbird
import Prometheus
import ServiceLifecycle
import Store

/// `GET /api/events`: server-sent events. Each event has its log id as `id:` and its type as
/// `event:`; `data:` is `{"type", "time", "data"}`. A client that reconnects with
/// `Last-Event-ID` (or `?last_event_id=`) first gets what it missed from the event log. A
/// comment every 15 s keeps idle connections open; the stream ends on shutdown.
struct EventRoutes {
    let context: DaemonContext
    static let heartbeat: Duration = .seconds(15)

    enum Outgoing: Sendable {
        case event(StoredEvent)
        case heartbeat
    }

    func add(to router: Router<DaemonRequestContext>) {
        router.get("/api/events") { request, _ in
            let resume = try Self.lastEventID(request)
            let live = await context.events.subscribe()  // before the replay, so nothing falls between
            let missed = try resume.map { try context.store.events(after: $0, limit: 100_000) } ?? []
            let clients = context.metrics.makeGauge(
                descriptor: MetricNameDescriptor(namespace: "glasses_audiod", metricName: "sse", unitName: "clients", helpText: "Clients following /api/events"))
            let body = ResponseBody { writer in
                clients.increment()
                defer { clients.decrement() }
                var last = resume ?? 0
                try await writer.write(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
                for event in missed {
                    try await writer.write(ByteBuffer(string: Self.format(event)))
                    last = event.id
                }
                let (outgoing, continuation) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .bufferingNewest(4096))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in live { continuation.yield(.event(event)) }
                        continuation.finish()
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: Self.heartbeat)
                            continuation.yield(.heartbeat)
                        }
                    }
                    defer { group.cancelAll() }
                    for await item in outgoing.cancelOnGracefulShutdown() {
                        switch item {
                        case .event(let event) where event.id > last:
                            try await writer.write(ByteBuffer(string: Self.format(event)))
                            last = event.id
                        case .event: continue
                        case .heartbeat: try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        }
                    }
                }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }
    }

    static func lastEventID(_ request: Request) throws -> Int64? {
        let text = request.headers[HTTPField.Name("Last-Event-ID")!] ?? request.uri.queryParameters.get("last_event_id")
        guard let text else { return nil }
        guard let id = Int64(text.trimmingCharacters(in: .whitespaces)), id >= 0 else {
            throw APIError.badRequest("Last-Event-ID must be an event id (a whole number ≥ 0) as sent in 'id:'; got '\(text.prefix(40))'")
        }
        return id
    }

    /// One event in the text/event-stream format.
    static func format(_ event: StoredEvent) -> String {
        let time = event.time.formatted(.iso8601)
        return "id: \(event.id)\nevent: \(event.type)\ndata: {\"id\":\(event.id),\"type\":\"\(event.type)\",\"time\":\"\(time)\",\"data\":\(event.data)}\n\n"
    }
}
