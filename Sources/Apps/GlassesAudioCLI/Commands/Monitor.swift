import ArgumentParser
import AudioBackend
import AudioCore
import BackendSelection
import Foundation
import RouteService
import Routing

/// `glasses-audio monitor`: every route change as it happens, one line each.
struct Monitor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print route changes live, one line each, until Ctrl-C.")

    @OptionGroup var backendOptions: BackendOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds (0.01...86400).", valueName: "seconds"),
            transform: DurationOption.length.transform)
    var seconds: Duration?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many events (1...1000000000).", valueName: "events"),
            transform: CountOption.events.transform)
    var count: Int?

    @Flag(help: "One JSON object per line.")
    var json = false

    @Flag(help: "Follow a running glasses-audiod's events (route changes, sessions, voice) instead of a backend of its own.")
    var daemon = false

    @OptionGroup var connection: DaemonConnection

    func run() async throws {
        if daemon { return try await followDaemon() }
        var watched: (events: AsyncStream<RouteEvent>, decisions: AsyncStream<RoutingOutput>)?
        let (json, count, seconds) = (self.json, self.count, self.seconds)
        try await BackendSession.withRoutes(backendOptions, quiet: json, ending: .keepingProfiles, beforeStart: { session, routes in
            // The route engine runs beside the raw events, so its route changes (with their
            // reasons) and session states are printed too.
            watched = (await session.backend.events(), await routes.observe())
        }) { session, _ in
            guard let (events, decisions) = watched else { return }
            // Signals are caught from here: a Ctrl-C right after the status line says it stops
            // the monitor ends it cleanly (before, one that came first killed it with 130).
            let interrupt = Interrupt()
            if !json { printStatus("watching route changes on \(session.backend.name); Ctrl-C stops") }
            let printer = MonitorPrinter(start: .now, json: json)
            try await interrupt.cancellable {
                try await forAtMost(seconds) { try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        var seen = 0
                        for await event in events {
                            try printer.print(event.description) { RouteEventRecord(event, time: $0) }
                            seen += 1
                            if let count, seen >= count { return }
                        }
                    }
                    group.addTask {
                        for await output in decisions {
                            let line: String
                            switch output {
                            case .routeChanged(let change): line = "route changed: \(change)"
                            case .sessionStateChanged, .sessionFailed, .sessionReady: line = "session \(output)"
                            case .activeDeviceChanged: line = "\(output)"
                            default: continue
                            }
                            try printer.print(line) { DecisionRecord(time: $0, output: output) }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                } }
            }
        }
    }
}

/// Prints one monitor line, or its JSON record, stamped with the seconds since `start`
/// (to the millisecond in JSON).
private struct MonitorPrinter: Sendable {
    let start: ContinuousClock.Instant
    let json: Bool

    func print(_ line: String, record: (Double) -> some Encodable) throws {
        let time = (ContinuousClock.now - start).inSeconds
        if json {
            try printJSON(record((time * 1000).rounded() / 1000))
        } else {
            Swift.print(String(format: "%8.3f  %@", time, line))
            flushStandardOutput()
        }
    }
}

/// An engine decision as one JSON object: `{"time": 1.2, "event": "route_changed", "reason": …}`.
struct DecisionRecord: Encodable {
    var time: Double
    var event: String
    var reason: String?
    var previous: String?
    var new: String?
    var session: Int?
    var state: String?
    var device: String?
    var text: String

    init(time: Double, output: RoutingOutput) {
        self.time = time
        text = output.description
        event = "decision"
        switch output {
        case .routeChanged(let change):
            event = "route_changed"
            reason = change.reason.rawValue
            previous = change.previous?.description
            new = change.new?.description
        case .sessionStateChanged(let id, let state):
            (event, session, self.state) = ("session_state", id.rawValue, state.rawValue)
        case .sessionFailed(let id, let error):
            (event, session, self.state) = ("session_failed", id.rawValue, error.userMessage)
        case .sessionReady(let id, let route):
            (event, session, device) = ("session_ready", id.rawValue, route.device.rawValue)
        case .activeDeviceChanged(let id):
            (event, device) = ("active_device", id?.rawValue)
        default:
            break
        }
    }
}
