import AudioBackend
import BluezBackend
import BluezModel
import Foundation
import PulseBackend
import Routing

/// Gathers what ``DoctorFacts`` holds: asks the sound server, the system bus and the kernel.
public enum DoctorProbe {
    /// - Parameters:
    ///   - server: the PulseAudio server (`nil`: `$PULSE_SERVER` or the user's).
    ///   - systemBus: the bus BlueZ is on (`nil`: `$DBUS_SYSTEM_BUS_ADDRESS`, else the standard one).
    public static func gather(server: String?, systemBus: String?) async -> DoctorFacts {
        let soundServer: Result<PulseServerInfo, DoctorProblem>
        var devices: [Device] = []
        do {
            soundServer = .success(try await PulseAudioBackend.inspect(server: server))
        } catch {
            soundServer = .failure(DoctorProblem("\(error)"))
        }
        if case .success = soundServer, let backend = try? await PulseAudioBackend.connect(server: server) {
            devices = (try? await backend.devices()) ?? []
            await backend.shutdown()
        }
        let address = systemBus ?? ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
        let bluez: Result<BluezObjectModel, DoctorProblem>
        do {
            let client = try await BluezClient.connect(busAddress: address)
            bluez = .success(client.model)
            client.shutdown()
        } catch {
            bluez = .failure(DoctorProblem("\(error)"))
        }
        return DoctorFacts(
            soundServer: soundServer, soundServerDevices: devices,
            systemBus: address ?? "unix:path=/run/dbus/system_bus_socket", bluez: bluez, hci: HCIInventory.read())
    }
}
