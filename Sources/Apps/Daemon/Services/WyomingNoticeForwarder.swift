import AssistantService
import ServiceLifecycle
import Wyoming
import WyomingServer

/// Carries the Wyoming server's notices (clients, Home Assistant running or pausing the
/// satellite, transcripts, timers, protocol errors) into the event bus as `wyoming.*` events,
/// and Home Assistant's timer events into the timer board.
struct WyomingNoticeForwarder: Service {
    let bus: EventBus
    let notices: AsyncStream<WyomingNotice>
    let timers: VoiceTimerBoard

    func run() async throws {
        for await notice in notices.cancelOnGracefulShutdown() {
            if case .event(_, .timer(let timer)) = notice, let change = timer.voiceTimerChange { timers.apply(change) }
            let (type, fields) = Self.describe(notice)
            await bus.publish(type, fields)
        }
    }

    static func describe(_ notice: WyomingNotice) -> (String, [String: JSONValue]) {
        switch notice {
        case .connected(let peer, let address): ("wyoming.connected", ["client": .number(Double(peer)), "address": .string(address)])
        case .disconnected(let peer): ("wyoming.disconnected", ["client": .number(Double(peer))])
        case .satelliteRunning(let peer): ("wyoming.satellite.running", ["client": .number(Double(peer))])
        case .satellitePaused(let peer): ("wyoming.satellite.paused", ["client": .number(Double(peer))])
        case .protocolError(let peer, let error, let closed):
            ("wyoming.protocol-error", ["client": .number(Double(peer)), "error": .string(error.description), "code": .string(error.code), "closed": .bool(closed)])
        case .event(let peer, let event):
            ("wyoming." + event.type, fields(of: event).merging(["client": .number(Double(peer))]) { _, new in new })
        }
    }

    private static func fields(of event: WyomingEvent) -> [String: JSONValue] {
        switch event {
        case .transcript(let text), .synthesize(let text): ["text": .string(text)]
        case .error(let text, let code): ["text": .string(text), "code": code.map { .string($0) } ?? .null]
        case .timer(let timer):
            ["id": .string(timer.id), "total_seconds": timer.totalSeconds.map { .number(Double($0)) } ?? .null, "name": timer.name.map { .string($0) } ?? .null]
        default: [:]
        }
    }
}
