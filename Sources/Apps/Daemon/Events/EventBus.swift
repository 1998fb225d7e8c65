import Foundation
public import Logging
import Synchronization
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
    /// Behind a lock of their own, so a subscription that ends is forgotten at once (in its
    /// `onTermination`, which cannot wait for the actor).
    private let subscribers = Mutex(Subscribers())

    private struct Subscribers {
        var all: [Int: AsyncStream<StoredEvent>.Continuation] = [:]
        var next = 0
        var closed = false
    }

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
        for continuation in subscribers.withLock({ Array($0.all.values) }) { continuation.yield(event) }
        return event
    }

    /// Every event from now on, until ``close()``.
    public func subscribe() -> AsyncStream<StoredEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoredEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let key = subscribers.withLock { subscribers -> Int? in
            guard !subscribers.closed else { return nil }
            defer { subscribers.next += 1 }
            subscribers.all[subscribers.next] = continuation
            return subscribers.next
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.all.removeValue(forKey: key) } }
        return stream
    }

    public var subscriberCount: Int { subscribers.withLock { $0.all.count } }

    /// Ends every subscription (shutdown).
    public func close() {
        let ended = subscribers.withLock { subscribers in
            subscribers.closed = true
            defer { subscribers.all = [:] }
            return Array(subscribers.all.values)
        }
        ended.forEach { $0.finish() }
    }
}
