import AssistantService
import AudioCore
import BackendSelection
import BluezBackend
import BluezModel
import CompanionBLE
import Foundation
import Logging
import RouteService
import SpeechPlayback
import Store

/// The daemon as the companion app's host: the REST API's key, its one settings path
/// (``SettingsEditor``), the assistant's sleep and wake, the glasses' speaker for the pairing
/// code, the event bus for pairing events.
struct DaemonCompanionHost: CompanionHost {
    let key: APIKey
    let state: AssistantState
    let editor: SettingsEditor
    let assistant: AssistantService
    let routes: RouteService
    let session: BackendSession
    let events: EventBus
    let logger: Logger
    let deviceInformation: CompanionDeviceInformation
    let phones: CompanionPhones
    let restart: DaemonRestart
    let lists: CompanionLists

    var apiKey: String { key.value }
    var settings: AssistantSettings { state.settings }

    func changeSetting(_ field: SettingsChange.Field, body: Data) async throws -> AssistantSettings {
        try await editor.change(field, body: body)
    }

    func control(_ command: CompanionWrite.SystemCommand) async {
        switch command {
        case .sleep: await assistant.sleep()
        case .wake: await assistant.wake()
        case .restart: await restartService()
        }
    }

    /// Drains the service as SIGTERM does, then starts it again in place (``DaemonRestart``).
    func restartService() async {
        logger.notice("ble: the companion app asked to restart the service")
        await restart.request(because: "asked by the companion app")
    }

    /// Says the code on the glasses' speaker. The text (with the code) is logged at trace level
    /// only, for tests that play the phone; never at the levels a journal keeps by default.
    func speak(_ text: String) async {
        logger.trace("ble: speech: saying \"\(text)\"")
        do {
            let said = try await RoutedSpeech.say(text, settings: state.speech, on: routes, wait: .seconds(10))
            logger.info("ble: the pairing code was spoken on \(said.sink) (\(String(format: "%.1f", said.spoken.inSeconds)) s)")
        } catch {
            logger.warning("ble: the pairing code could not be spoken: \(error)")
        }
    }

    func publish(_ event: PairingEvent) async {
        switch event {
        case .opened(let closesIn):
            logger.info("ble: pairing window open for \(closesIn.components.seconds) s")
            await events.publish("pairing.opened", ["closes_in": .number(Double(closesIn.components.seconds))])
        case .stillOpen(let closesIn):
            logger.info("ble: a pairing window is open already (closes in \(closesIn.components.seconds) s): it stays as it is")
            await events.publish("pairing.still_open", ["closes_in": .number(Double(closesIn.components.seconds))])
        case .attempt(let device, let accepted, let left):
            logger.notice("ble: pairing code from \(device) \(accepted ? "accepted" : "refused") (\(left) attempts left)")
            await events.publish("pairing.attempt", ["device": .string(device), "accepted": .bool(accepted), "attempts_left": .number(Double(left))])
        case .keyReleased(let device):
            phones.remember(device, logger: logger)
            logger.notice("ble: the API key was given to \(device); it is paired")
            await events.publish("pairing.key_released", ["device": .string(device)])
        case .closed(let reason):
            logger.info("ble: pairing window closed (\(reason.rawValue))")
            await events.publish("pairing.closed", ["reason": .string(reason.rawValue)])
        }
    }

    func syncedList(_ list: DataSyncList) -> Data? { lists.load(list, logger: logger) }

    func storeList(_ list: DataSyncList, _ data: Data) throws {
        try lists.store(list, data)
        logger.info("ble: the companion app's \(list.rawValue) kept (\(data.count) bytes)")
    }

    /// The battery of the glasses BlueZ has connected, when one reports it.
    var batteryLevel: Int? {
        session.bluez?.model.devices.first { $0.connected && $0.battery != nil }?.battery
    }

    /// This host's Device Information: its model (device tree, else DMI), the first 8 digits of
    /// its machine id as the serial, our version as the firmware.
    static func local(version: String) -> CompanionDeviceInformation {
        func read(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?
                .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
                .nilIfEmpty
        }
        let model = read("/proc/device-tree/model") ?? read("/sys/class/dmi/id/product_name") ?? "Linux host"
        let serial = read("/etc/machine-id").map { String($0.prefix(8)) } ?? "unknown"
        return CompanionDeviceInformation(manufacturer: "GlassesAudio", model: String(model.prefix(64)), serial: serial, firmware: version)
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
