import Foundation
import Testing
import TestKit

/// `glasses-audio doctor` on the emulator's sandbox and on a machine with nothing.
@Suite("glasses-audio doctor", .oneAtATime, .serialized)
struct DoctorCommandTests {
    let audio = Run.productPath("glasses-audio")

    @Test("on the sandbox: ✓ for the sound server, its bluetooth, BlueZ, the adapter and the glasses with battery and card")
    func sandbox() async throws {
        let directory = TemporaryDirectory()
        let sandbox = try await offThread { try EmulatorSandbox(emulator: Run.productPath("glasses-emulator"), directory: directory, connected: true) }
        defer { sandbox.stop() }
        // The card comes a moment after the glasses connect, and the battery with the hands-free
        // link (the glasses report as it comes up); doctor reports what is there now.
        _ = try await offThread { [audio] in
            Poll.until {
                let devices = (try? Run.command(audio, ["devices"], environment: sandbox.environment))?.stdout ?? ""
                return devices.contains("profile media (offers voice/media") && devices.contains("battery 80%")
            }
        }
        let result = try await offThread { [audio] in try Run.command(audio, ["doctor"], environment: sandbox.environment) }
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✓ sound server: PulseAudio: pulseaudio ") }, "\(result.stdout)\nsandbox pulse log: \(sandbox.pulseLog)")
        #expect(lines.contains("✓ bluetooth in the sound server: module-bluez5-discover, module-bluez5-device; HFP through oFono"), "\(result.stdout)")
        #expect(lines.contains("✓ BlueZ: org.bluez on the system bus"))
        #expect(lines.contains("✓ adapter: hci0 00:1A:7D:DA:71:13, powered"))
        #expect(lines.contains("✓ glasses Ray-Ban Meta Gen 2 (C0:FF:EE:00:00:02): connected, hfp + a2dp-sink, battery 80%; card on media (offers voice/media)"), "\(result.stdout)")
        // The kernel's controllers: whatever this machine has, one line (here: no Bluetooth in the kernel).
        let hci = try #require(lines.first { $0.contains("HCI controllers:") })
        #expect(hci.hasPrefix("✓") || lines.contains { $0.hasPrefix("    fix: real glasses need a kernel with Bluetooth") })
        #expect(result.status == (hci.hasPrefix("✓") ? 0 : 1))
    }

    @Test("with no sound server and no system bus: exit 1, a ✗ with a fix for each, the rest skipped; --json says the same")
    func nothing() async throws {
        let directory = TemporaryDirectory()
        let environment = ["PULSE_SERVER": "unix:\(directory.path("no-pulse"))", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory.path("no-bus"))"]
        let result = try await offThread { [audio] in try Run.command(audio, ["doctor"], environment: environment) }
        #expect(result.status == 1)
        #expect(result.stdout.contains("✗ sound server: no PulseAudio or PipeWire server answered"))
        #expect(result.stdout.contains("    fix: start one (pulseaudio --start, or systemctl --user start pipewire-pulse) or set PULSE_SERVER"))
        #expect(result.stdout.contains("✗ system bus: cannot reach the bus at unix:path=\(directory.path("no-bus"))"))
        #expect(result.stdout.contains("– BlueZ: no system bus to look on"))
        let json = try await offThread { [audio] in try Run.command(audio, ["doctor", "--json"], environment: environment) }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.filter { $0["status"] as? String == "failed" }.allSatisfy { ($0["fix"] as? String)?.isEmpty == false })
    }
}
