import AudioCore
import Foundation
public import Logging
public import Prometheus
public import Store

/// Route changes, session states and voice events for every subscriber (SSE clients, the
/// Wyoming satellite, metrics). Each event is first written to the store's event log, which
/// gives it its id (the SSE `id:`), so a client that reconnects with `Last-Event-ID` gets
/// what it missed, across daemon restarts too, within the log's retention.
public actor EventBus {
    private let store: Store
    private let logger: Logger
    private let metrics: PrometheusCollectorRegistry
    private let subscribers = Followers<StoredEvent>(buffering: .bufferingNewest(4096))
    private var closed = false

    public init(store: Store, logger: Logger, metrics: PrometheusCollectorRegistry) {
        self.store = store
        self.logger = logger
        self.metrics = metrics
    }

    /// Logs and hands out one event; returns it with its id (`nil` if it could not be logged).
    @discardableResult
    public func publish(_ type: String, _ fields: [String: JSONValue] = [:]) -> StoredEvent? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(fields)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let event: StoredEvent
        do {
            event = try store.appendEvent(type: type, data: data)
        } catch {
            logger.error("event \(type) not logged: \(error)")
            return nil
        }
        metrics.makeCounter(
            descriptor: MetricNameDescriptor(namespace: "glasses_audiod", metricName: "events", unitName: "total", helpText: "Events published, by type"),
            labels: [("type", type)]
        ).increment()
        subscribers.yield(event)
        return event
    }

    /// Every event from now on, until ``close()``.
    public func subscribe() -> AsyncStream<StoredEvent> {
        guard !closed else { return AsyncStream { $0.finish() } }
        return subscribers.follow()
    }

    public var subscriberCount: Int { subscribers.count }

    /// Ends every subscription (shutdown).
    public func close() {
        closed = true
        subscribers.finishAll()
    }
}
