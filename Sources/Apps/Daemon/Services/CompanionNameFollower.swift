import CompanionBLE
import Foundation
import ServiceLifecycle
import Store

/// The companion app's advertisement follows the assistant's name: each `settings.changed` of
/// the name (from the REST API, Bluetooth LE or anywhere else) renames it.
struct CompanionNameFollower: Service {
    let events: EventBus
    let state: AssistantState
    let companion: CompanionPeripheral

    func run() async throws {
        for await event in await events.subscribe().cancelOnGracefulShutdown() where event.type == "settings.changed" {
            let fields = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any]
            if fields?["field"] as? String == "name" { companion.advertise(name: state.settings.name) }
        }
    }
}
