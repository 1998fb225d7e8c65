import AssistantAssembly
public import AssistantService
public import AssistantSocket
import AudioBackend
public import BackendSelection
import Foundation
public import Logging
public import Prometheus
public import RouteService
import Routing
public import Store
public import WyomingServer
public import ESPHomeServer
public import CompanionBLE

/// Everything the daemon's services share, opened once at start: the store, the event bus,
/// the backend and its route service, the assistant, the API key, the metrics registry.
/// Services take what they need from here; ``DaemonServices`` lists them.
public struct DaemonContext: Sendable {
    public let configuration: DaemonConfiguration
    public let logger: Logger
    public let store: Store
    public let events: EventBus
    public let session: BackendSession
    public let routes: RouteService
    public let assistant: AssistantService
    public let assistantState: AssistantState
    public let apiKey: APIKey
    public let metrics: PrometheusCollectorRegistry
    public let notifier: SystemdNotifier
    public let startedAt: Date
    /// The Wyoming satellite and wake-word server (bound at open), and what it reports.
    public let wyoming: WyomingServer
    public let wyomingNotices: AsyncStream<WyomingNotice>
    /// ESPHome's native API for Home Assistant's ESPHome integration (bound at open).
    public let esphome: ESPHomeServer
    /// The custom backends on `/api/assistant`.
    public let assistantSockets: AssistantSocketHub
    /// The timers Home Assistant keeps for the glasses.
    public let timers: VoiceTimerBoard
    /// The data directory, locked for this daemon's life.
    public let dataFolder: DataDirectory
    /// The wake words' engines, shared by the assistant and the Wyoming wake-word service.
    let wakeEngines: WakeEngines
    /// The companion app's Bluetooth LE side (seed 001), unless `ble` is off.
    public let companion: CompanionPeripheral?
    /// A restart of the service asked for while it runs (the companion app's System Control).
    public let restart: DaemonRestart
    /// The daemon's version, as `--version` and Device Information say it.
    public static let version = "0.1.0"

    /// The one path settings changes take (the REST API, the companion app over Bluetooth LE).
    var settingsEditor: SettingsEditor { SettingsEditor(state: assistantState, store: store, events: events) }

    /// Opens everything in order; what was opened is closed again if a later step fails.
    public static func open(
        _ configuration: DaemonConfiguration, loggers: DaemonLoggers, metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry()
    ) async throws -> DaemonContext {
        let logger = loggers.daemon
        let data = configuration.dataDirectory
        let dataFolder = try DataDirectory.open(data, logger: logger)
        let apiKey = try APIKey.loadOrCreate(in: data)
        let store = try Store(path: dataFolder.databasePath, eventRetention: configuration.eventRetention)
        let settings = try store.settings()
        let session: BackendSession
        var backendSettings = configuration.backendSettings
        backendSettings.streamNotes = { [logger] in logger.notice("\($0)") }  // audio a capture lost, and each capture's account
        do {
            session = try await BackendSession.open(backendSettings)
        } catch {
            throw DaemonError("no audio backend: \(error)")
        }
        for warning in session.warnings { logger.warning("\(warning)") }
        logger.info("backend: \(session.kind.rawValue) (\(session.reason))")
        let routes = RouteService(
            backend: session.backend, configuration: RoutingConfiguration(policy: configuration.policy), clock: session.clock,
            logger: loggers.route)
        let assistantState = AssistantState(settings: settings)
        let wakeEngines = WakeEngines()
        let wyoming: WyomingServer
        let wyomingNotices: AsyncStream<WyomingNotice>
        do {
            (wyoming, wyomingNotices) = try await WyomingAssembly.bind(
                configuration: configuration, state: assistantState, engines: wakeEngines,
                logger: loggers.wyoming)
        } catch {
            _ = try? await session.close()
            throw DaemonError(
                ListenError.describe(
                    error, what: "the Wyoming server", host: configuration.wyomingHost, port: configuration.wyomingPort, flag: "--wyoming-port"))
        }
        let assistantSockets = AssistantSocketHub(
            logger: loggers.assistantSocket)
        let esphomeVoice = ESPHomeVoiceSatellite(logger: loggers.esphome)
        let timers = VoiceTimerBoard(clock: session.clock)
        let assistant: AssistantService
        do {
            assistant = try DaemonAssistant.make(
                routes: routes, state: assistantState, configuration: configuration,
                store: store, wyoming: wyoming, esphome: esphomeVoice, sockets: assistantSockets, engines: wakeEngines, timers: timers,
                logger: loggers.assistant)
        } catch {
            await wyoming.close()
            _ = try? await session.close()
            throw DaemonError("the assistant cannot start: \(error)")
        }
        let events = EventBus(store: store, logger: logger, metrics: metrics)
        let wakeWords = ESPHomeWakeWords(
            state: assistantState, store: store, events: events, engines: wakeEngines, assistant: assistant, logger: loggers.esphome)
        let esphome: ESPHomeServer
        do {
            esphome = try await ESPHomeAssembly.bind(
                configuration: configuration, friendlyName: settings.name, assistant: assistant, state: assistantState,
                voice: esphomeVoice, timers: timers, wakeWords: wakeWords, logger: loggers.esphome)
        } catch let error as DaemonError {
            await wyoming.close()
            _ = try? await session.close()
            throw error
        } catch {
            await wyoming.close()
            _ = try? await session.close()
            throw DaemonError(
                ListenError.describe(
                    error, what: "the ESPHome API server", host: configuration.bind, port: configuration.esphomePort, flag: "--esphome-port"))
        }
        let phones = CompanionPhones(directory: data)
        let restart = DaemonRestart()
        let companion = configuration.ble
            ? CompanionPeripheral(
                host: DaemonCompanionHost(
                    key: apiKey, state: assistantState, editor: SettingsEditor(state: assistantState, store: store, events: events),
                    assistant: assistant, routes: routes, session: session, events: events, logger: logger,
                    deviceInformation: DaemonCompanionHost.local(version: version), phones: phones, restart: restart,
                    lists: CompanionLists(directory: data)),
                pairedPhones: phones.load())
            : nil
        return DaemonContext(
            configuration: configuration, logger: logger, store: store, events: events,
            session: session, routes: routes, assistant: assistant, assistantState: assistantState, apiKey: apiKey,
            metrics: metrics, notifier: SystemdNotifier(), startedAt: Date(), wyoming: wyoming, wyomingNotices: wyomingNotices,
            esphome: esphome, assistantSockets: assistantSockets, timers: timers, dataFolder: dataFolder,
            wakeEngines: wakeEngines, companion: companion, restart: restart)
    }

    /// After the services stopped: the event bus ends its subscriptions, the store's log is
    /// checkpointed into its file, the backend closes (the simulated speaker's recording is saved).
    public func close() async {
        await wyoming.close()  // closed by its run already, unless the services never ran
        await esphome.close()
        await events.close()
        do { try store.checkpoint() } catch { logger.warning("the store's write-ahead log was not checkpointed: \(error)") }
        do {
            if let saved = try await session.close() { logger.info("\(saved)") }
        } catch {
            logger.error("closing the backend: \(error)")
        }
        dataFolder.close()
    }
}

extension DaemonConfiguration {
    /// Where the Wyoming server listens: `wyoming-bind`, else `bind`.
    var wyomingHost: String { wyomingBind ?? bind }

    /// What backend selection needs from the daemon's settings.
    var backendSettings: BackendSettings {
        BackendSettings(
            kind: backend, server: server, model: model, mic: mic, micMode: micMode, speakerOut: speakerOut, profiles: profiles)
    }
}
