import AssistantService
import BluezBackend
import CompanionBLE
import ESPHomeAPI
import ESPHomeServer
import Foundation
import WyomingServer
public import ServiceLifecycle

/// Every long-running part of glasses-audiod, in start order; the graceful shutdown runs
/// them down in reverse (the last one listed hears SIGTERM first). Add a server here.
///
/// - route service: follows the backend and carries out the route engine's decisions; on
///   shutdown it ends every session, closing its streams at the sound server (so it is early
///   in the list: it stops after everything that uses it);
/// - assistant: the wake word, the command, the reply;
/// - event forwarder: route changes, session states and voice events into the event bus;
/// - HTTP API: REST, server-sent events, metrics, the OpenAPI document;
/// - Wyoming: the satellite for Home Assistant and the wake-word service (TCP), its notices
///   into the event bus, and its announcements played;
/// - ESPHome: the native API for Home Assistant's ESPHome integration (TCP), advertised
///   through Avahi when it runs;
/// - companion app (Bluetooth LE): seed 001's GATT services and advertisement through BlueZ,
///   the spoken-code pairing; unless `ble` is off;
/// - the glasses' button: the connected glasses' touches (AVRCP play/pause); a long press
///   asks for a pairing window, a short touch is push-to-talk;
/// - wake preparation: the wake word in force prepared off the start (a new phrase trains for
///   minutes, said with its progress), then listening starts when configured to; stopped early
///   on shutdown, between two training utterances;
/// - speech preparation: the replies' speech engine loaded once, off the first reply's path;
/// - systemd: the watchdog, and STOPPING first on shutdown.
public enum DaemonServices {
    public static func assemble(_ context: DaemonContext) async -> [any Service] {
        var services: [any Service] = []
        services.append(context.routes)
        services.append(context.assistant)
        services.append(await EventForwarder.make(context))
        services.append(HTTPServer.make(context))
        services.append(context.wyoming)
        services.append(context.esphome)
        services.append(
            AvahiAdvertisement(
                record: context.esphome.device.discoveryRecord(port: context.esphome.port, encrypted: context.esphome.isEncrypted),
                logger: context.logger))
        if let companion = context.companion {
            services.append(CompanionBLEService(peripheral: companion, logger: context.logger))
            services.append(CompanionNameFollower(events: context.events, state: context.assistantState, companion: companion))
        }
        services.append(
            GlassesButtonService(
                routes: context.routes, assistant: context.assistant, companion: context.companion,
                inputPaths: GlassesButtonReader.inputPaths(ProcessInfo.processInfo.environment), logger: context.logger))
        services.append(WyomingNoticeForwarder(bus: context.events, notices: context.wyomingNotices, timers: context.timers))
        services.append(WyomingAnnouncementPlayer(link: context.wyoming.satellite, assistant: context.assistant))
        let (assistant, listen) = (context.assistant, context.configuration.listen)
        services.append(
            WakePreparationService(
                engines: context.wakeEngines, state: context.assistantState, logger: context.logger,
                // Listens once its wake word is ready, when configured to (the input waits for the loop).
                whenPrepared: { if listen { assistant.trigger(skipWake: false) } }))
        services.append(SpeechPreparationService(state: context.assistantState, logger: context.logger))
        services.append(SystemdService(notifier: context.notifier, interval: context.configuration.watchdogInterval, restart: context.restart))
        return services
    }
}
