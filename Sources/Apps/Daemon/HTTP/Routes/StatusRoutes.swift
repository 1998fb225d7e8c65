import Assistant
import AssistantAssembly
import AssistantService
import AudioBackend
import BackendSelection
import Foundation
import Hummingbird
import RouteService
import Routing
import Store

/// `GET /api/status`: seed 001's status (mode, personality, name, battery, connected,
/// timestamp) plus the backend and the route.
struct StatusRoutes {
    let context: DaemonContext

    struct Status: Encodable {
        var mode: String
        /// What the assistant is doing: asleep, idle, opening, listening, capturing, thinking, speaking.
        var assistant: String
        var personality: String
        var name: String
        var battery: Int?
        var connected: Bool
        var timestamp: Date
        var backend: String
        var uptime: Double
        var wake: Wake
        /// Home Assistant's timers for the glasses, in the order they were started.
        var timers: [VoiceTimers.Timer]
    }

    /// The wake word in force and whether it is ready to be listened for: `ready`, `training`
    /// (a new phrase: minutes; `progress` 0...1) or `waiting` (not started yet, or failed: the
    /// log says why).
    struct Wake: Encodable {
        enum State: String, Encodable { case ready, training, waiting }
        let phrase: String, state: State, progress: Double?
    }

    func add(to router: Router<DaemonRequestContext>) {
        router.get("/api/status") { _, _ in
            let settings = context.assistantState.settings
            let phase = await context.assistant.phase
            let devices = await context.routes.devices
            let connected = devices.filter { $0.linkState == .connected }
            return JSONResponse.make(
                Status(
                    mode: StatusMode.of(phase, policy: context.configuration.policy), assistant: phase.rawValue, personality: settings.personality, name: settings.name,
                    battery: connected.first?.battery, connected: !connected.isEmpty, timestamp: Date(),
                    backend: context.session.kind.rawValue, uptime: Date().timeIntervalSince(context.startedAt),
                    wake: Self.wake(settings.wakeWord.keyword, context.wakeEngines.readiness(of: settings.wakeWord.keyword)),
                    timers: context.timers.all))
        }
    }

    static func wake(_ phrase: String, _ readiness: WakeEngines.Readiness) -> Wake {
        switch readiness {
        case .ready: Wake(phrase: phrase, state: .ready, progress: nil)
        case .preparing(let progress): Wake(phrase: phrase, state: .training, progress: progress)
        case .notPrepared: Wake(phrase: phrase, state: .waiting, progress: nil)
        }
    }
}

/// `/api/status`'s `mode`.
public enum StatusMode {
    /// Seed 001's mode, said honestly: `active` only while the assistant listens or is in a
    /// turn (or, under mediaFirst, waits for a trigger, which is what it should do then);
    /// `starting` while it opens its route, or idles under voiceFirst (it should be listening and
    /// is not: no glasses, or its route failed); `sleep` when asleep.
    public static func of(_ phase: AssistantPhase, policy: SwitchingPolicy) -> String {
        switch phase {
        case .asleep: "sleep"
        case .listening, .capturing, .thinking, .speaking: "active"
        case .idle: policy == .mediaFirst ? "active" : "starting"
        case .opening: "starting"
        }
    }
}
