import Assistant
import AssistantService
import AudioCore
import Foundation
import Logging
import RouteService
import Routing
import ServiceLifecycle
import Store

/// Carries the route service's decisions (route changes with their reasons, session states,
/// the active device) and the assistant's steps into the event bus. Subscribes at creation, so
/// nothing said before ``run()`` is missed.
struct EventForwarder: Service {
    let bus: EventBus
    let routeOutputs: AsyncStream<RoutingOutput>
    let assistantEvents: AsyncStream<AssistantEvent>

    static func make(_ context: DaemonContext) async -> EventForwarder {
        EventForwarder(
            bus: context.events, routeOutputs: await context.routes.observe(),
            assistantEvents: context.assistant.events())
    }

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await output in routeOutputs.cancelOnGracefulShutdown() {
                    guard let (type, fields) = Self.describe(output) else { continue }
                    await bus.publish(type, fields)
                }
            }
            group.addTask {
                // A route change is the route service's `route.changed` (with its reason): the
                // assistant's report of the same change is not published a second time.
                for await event in assistantEvents.cancelOnGracefulShutdown() where event.type != .routeChanged {
                    await bus.publish("assistant." + event.type.rawValue, Self.fields(event))
                }
            }
        }
    }

    /// The outputs a person or a client cares about; the rest (ticks, stream plumbing) stay inside.
    static func describe(_ output: RoutingOutput) -> (String, [String: JSONValue])? {
        switch output {
        case .routeChanged(let change):
            return ("route.changed", ["reason": .string(change.reason.rawValue), "explanation": .string(change.reason.explanation),
                "description": .string(change.description),
                "previous": change.previous.map { .string($0.description) } ?? .null, "new": change.new.map { .string($0.description) } ?? .null])
        case .sessionStateChanged(let id, let state):
            return ("session.state", ["session": .string("\(id)"), "state": .string(state.rawValue)])
        case .sessionFailed(let id, let error):
            return ("session.failed", ["session": .string("\(id)"), "error": .string("\(error)")])
        case .sessionReady(let id, let route):
            return ("session.ready", ["session": .string("\(id)"), "route": .string("\(route)")])
        case .activeDeviceChanged(let device):
            return ("device.active", ["device": device.map { .string("\($0)") } ?? .null])
        case .perform(.setProfile(let device, let profile)):
            return ("route.profile", ["device": .string("\(device)"), "profile": .string(profile.rawValue)])
        case .perform, .openStream, .closeStream, .scheduleTick:
            return nil
        }
    }

    static func fields(_ event: AssistantEvent) -> [String: JSONValue] {
        var fields: [String: JSONValue] = ["time": .number(rounded(event.time.inSeconds))]
        if let text = event.text { fields["text"] = .string(text) }
        if let duration = event.duration { fields["duration"] = .number(rounded(duration.inSeconds)) }
        if let score = event.score { fields["score"] = .number(rounded(score)) }
        return fields
    }

    /// Milliseconds are enough for a person or a client.
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000
    }
}
