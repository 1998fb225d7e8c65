import AssistantService
import BluezBackend
import CompanionBLE
import Foundation
import Logging
import RouteService
import Routing
import ServiceLifecycle

/// The glasses' button in glasses-audiod: the touches of the connected glasses (AVRCP
/// play/pause, read by ``GlassesButtonReader`` as for `glasses-audio listen --button`), told
/// apart by ``GlassesButtonGestures`` and carried out in order:
/// - a **long press** (held 3 s) asks for a pairing window for the companion app, the way
///   `POST /api/pairing` does, except that a window open already stays as it is;
/// - a **short touch** is push-to-talk, as `POST /api/listen` (nothing while asleep).
///
/// The reader follows the glasses: made for the ones connected, stopped when they go, made
/// again for the next ones (the reader itself waits for their key device across a fold).
struct GlassesButtonService: Service {
    let routes: RouteService
    let assistant: AssistantService
    /// The companion app's side; nil with `--ble off` (a long press is then only logged).
    let companion: CompanionPeripheral?
    let inputPaths: (devicesFile: String, inputDirectory: String)
    let logger: Logger
    /// The clock the touches' times are on (the kernel's real-time stamps).
    var now: @Sendable () -> Duration = GlassesButtonEvent.clockNow

    /// What the loop acts on, one at a time.
    enum Input: Sendable {
        case glasses(Device?)
        case touch(GlassesButtonEvent)
        case tick
    }

    func run() async {
        let (inputs, sink) = AsyncStream<Input>.makeStream()
        let watcher = Task { [routes] in
            // Following first, then looking: glasses that connect in between are in what follows
            // (looking first lost them once, in the lab: the daemon said no glasses for good).
            let outputs = await routes.observe()
            sink.yield(.glasses(await Self.connectedGlasses(routes)))
            for await _ in outputs { sink.yield(.glasses(await Self.connectedGlasses(routes))) }
        }
        var glasses: Device?
        var reader: GlassesButtonReader?
        var forwarder: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var gestures = GlassesButtonGestures()
        var followed = false
        for await input in inputs.cancelOnGracefulShutdown() {
            switch input {
            case .glasses(let connected):
                guard !followed || connected?.identifier != glasses?.identifier else { continue }
                followed = true
                reader?.stop()
                forwarder?.cancel()
                (glasses, reader, gestures) = (connected, nil, GlassesButtonGestures())
                guard let connected else {
                    logger.notice("button: no glasses are connected: no button is read until some connect")
                    continue
                }
                do {
                    let started = try GlassesButtonReader(
                        address: connected.identifier.rawValue, name: connected.name.isEmpty ? nil : connected.name,
                        devicesFile: inputPaths.devicesFile, inputDirectory: inputPaths.inputDirectory)
                    reader = started
                    forwarder = Task { for await touch in started.events { sink.yield(.touch(touch)) } }
                    logger.notice(
                        "button: the touches of \(connected.name) (\(connected.identifier.rawValue), AVRCP play/pause) are read: a long press (3 s) opens a pairing window, a short touch starts a command; \(started.state)"
                    )
                } catch {
                    logger.warning("button: the touches of \(connected.name) cannot be read: \(error)")
                }
            case .touch(.pressed(let time)):
                let deadline = gestures.pressed(at: time)
                timer?.cancel()
                timer = Task { [now] in
                    guard (try? await Task.sleep(for: max(.zero, deadline - now()))) != nil else { return }
                    sink.yield(.tick)
                }
            case .touch(.released(let time)):
                timer?.cancel()
                if let gesture = gestures.released(at: time) { await carryOut(gesture) }
            case .tick:
                if let gesture = gestures.tick(now: now()) { await carryOut(gesture) }
            }
        }
        watcher.cancel()
        timer?.cancel()
        reader?.stop()
        forwarder?.cancel()
    }

    /// The glasses the route service has connected (the first, as `listen --button` takes them).
    static func connectedGlasses(_ routes: RouteService) async -> Device? {
        await routes.devices.first { $0.linkState == .connected }
    }

    private func carryOut(_ gesture: GlassesButtonGestures.Gesture) async {
        switch gesture {
        case .longPress:
            guard let companion else {
                logger.notice("button: a long press: Bluetooth LE is off (--ble off), so no pairing window opens")
                return
            }
            logger.notice("button: a long press: a pairing window for the companion app is asked for")
            do throws(CompanionUnavailable) {
                try companion.openWindowUnlessOpen()
            } catch {
                logger.notice("button: a long press: the companion app cannot pair now: \(error.reason)")
            }
        case .shortTouch:
            if await PushToTalk.start(assistant) {
                logger.info("button: a short touch: listening for a command")
            } else {
                logger.notice("button: a short touch: the assistant is asleep, so nothing starts (wake it first)")
            }
        }
    }
}
