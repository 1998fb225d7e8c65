import Foundation
import Testing
import TestKit

/// `glasses-emulator --sound-server`: the sandbox on PipeWire, and the flag's bad uses.
@Suite("glasses-emulator --sound-server", .oneAtATime, .serialized)
struct EmulatorSoundServerTests {
    let emulator = Run.productPath("glasses-emulator")

    @Test(
        "the PipeWire sandbox comes up, PipeWire registers with the emulated BlueZ and oFono, status says so",
        .enabled(if: PipeWireDaemon.hasBluetooth, "PipeWire or its Bluetooth plugin is not installed"))
    func pipeWireSandbox() async throws {
        let result = try await offThread { [emulator] in
            try Run.command(emulator, ["--sound-server", "pipewire", "--script", "wait server; status; quit"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("PULSE_SERVER=unix:"))
        #expect(result.stdout.contains("Ray-Ban Meta Gen 2 C0:FF:EE:00:00:02: connected; sound server registered;"), "\(result.stdout)\(result.stderr)")
    }

    @Test("--sound-server with --bus, or an unknown server, is a usage error")
    func badUse() async throws {
        let withBus = try await offThread { [emulator] in try Run.command(emulator, ["--bus", "unix:path=/nonexistent", "--sound-server", "pipewire"]) }
        #expect(withBus.status == 2)
        #expect(withBus.stderr.contains("--sound-server picks the sandbox's server; with --bus the sound server is yours"))
        let unknown = try await offThread { [emulator] in try Run.command(emulator, ["--sound-server", "jack"]) }
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("jack"))
    }
}
