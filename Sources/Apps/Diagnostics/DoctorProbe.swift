import ALSABackend
import AudioBackend
import BackendSelection
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
        var facts = DoctorFacts(
            soundServer: soundServer, soundServerDevices: devices,
            systemBus: address ?? "unix:path=/run/dbus/system_bus_socket", bluez: bluez, hci: HCIInventory.read())
        facts.alsa = await alsaFacts(systemBus: address)
        do {
            let (kind, reason) = try await BackendSession.choice(BackendSettings(server: server))
            facts.backendChoice = .success("\(kind.rawValue) would be used (\(reason == "asked for" ? "--backend" : reason))")
        } catch {
            facts.backendChoice = .failure(DoctorProblem("\(error)"))
        }
        return facts
    }

    /// libasound, its cards and PCMs; BlueALSA's version and, on the system bus, its PCMs.
    static func alsaFacts(systemBus: String?) async -> ALSAFacts {
        let pcms = ((try? await ALSAAudioBackend().endpoints()) ?? []).map(\.name)
        var unique: [String] = []
        for name in pcms where !unique.contains(name) { unique.append(name) }
        var blueALSAPCMs: [BlueALSAPCM]?
        if let client = try? await BlueALSAClient.connect(busAddress: systemBus) {
            if client.isServiceUp { blueALSAPCMs = client.model.pcms.values.sorted { $0.path < $1.path } }
            client.shutdown()
        }
        return ALSAFacts(
            library: ALSAAudioBackend.libraryVersion, cards: ALSACard.present(), pcms: unique,
            blueALSAVersion: blueALSAVersion(), blueALSAPCMs: blueALSAPCMs)
    }

    /// `bluealsa --version` (`v4.0.0`), or nil when it is not installed.
    static func blueALSAVersion() -> String? {
        let path = ["/usr/bin/bluealsa", "/usr/local/bin/bluealsa"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let version = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return version.isEmpty ? "installed (version unknown)" : version
    }
}
