import BluezBackend
import Foundation

/// Reaching BlueZ for a sound-server backend: a client when the system bus answers (BlueZ
/// itself may come later; the client follows it), or a sentence saying why not.
enum BluezSelection {
    static func connect(systemBus: String?) async -> (BluezClient?, String) {
        let address = systemBus ?? ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
        do {
            let client = try await BluezClient.connect(busAddress: address)
            let note = client.isServiceUp
                ? "BlueZ on the system bus"
                : "BlueZ not on the system bus yet (the sound server alone says what is linked until it comes)"
            return (client, note)
        } catch {
            return (nil, "no system bus (\(error)): the sound server alone says what is linked")
        }
    }
}
