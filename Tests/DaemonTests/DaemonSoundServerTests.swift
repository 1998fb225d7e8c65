import Foundation
import Testing
import TestKit

extension DaemonSuites {
    /// glasses-audiod on a real PulseAudio with the emulated glasses on the emulated BlueZ
    /// (glasses-emulator's sandbox): route changes reach /api/events, and SIGTERM in the middle
    /// of a command leaves no stream of ours at the server.
    @Suite("glasses-audiod on PulseAudio with glasses-emulator", .serialized)
    struct DaemonSoundServerTests {
        let emulator = Run.productPath("glasses-emulator")
        let cli = Run.productPath("glasses-audio")

        /// The server's client streams (sink inputs and source outputs), one line each.
        static func streams(_ sandbox: EmulatorSandbox) throws -> String {
            let inputs = try Run.command("pactl", ["list", "short", "sink-inputs"], environment: sandbox.environment)
            let outputs = try Run.command("pactl", ["list", "short", "source-outputs"], environment: sandbox.environment)
            guard inputs.status == 0, outputs.status == 0 else { throw TestFailure("pactl: \(inputs.stderr)\(outputs.stderr)") }
            return inputs.stdout + outputs.stdout
        }

        @Test("the emulator's disconnect reaches /api/events as a route change: the old device is unavailable")
        func disconnectEvent() async throws {
            let directory = TemporaryDirectory()
            let sandbox = try await offCooperativePool { [emulator] in try EmulatorSandbox(emulator: emulator, directory: directory, connected: true) }
            defer { sandbox.stop() }
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"), backend: "pulse", environment: sandbox.environment)
            let devices = try await daemon.request("GET", "/api/devices")
            #expect(devices.body.contains("C0:FF:EE:00:00:02"), "\(devices.body)\n\(daemon.child.stderrSoFar)")
            let follower = try daemon.followEvents()
            #expect(try await offCooperativePool { follower.waitForOutput(": connected") })
            let down = try await offCooperativePool { [cli] in
                try Run.command(cli, ["disconnect", "C0:FF:EE:00:00:02"], environment: sandbox.environment)
            }
            #expect(down.status == 0, "\(down.stderr)")
            #expect(try await offCooperativePool { follower.waitForOutput(#""reason":"oldDeviceUnavailable""#) }, "\(follower.stdoutSoFar)")
            #expect(follower.stdoutSoFar.contains("event: route.changed"))
            follower.signal(SIGTERM)
            _ = follower.finish(hangGuard: .seconds(5))
            let output = try await daemon.stop()
            #expect(output.status == 0, "\(output.stderr)")
        }

        @Test("SIGTERM while a command is being captured: the daemon exits 0 and no stream is left at the sound server")
        func sigtermMidCommand() async throws {
            let directory = TemporaryDirectory()
            let sandbox = try await offCooperativePool { [emulator] in try EmulatorSandbox(emulator: emulator, directory: directory, connected: true) }
            defer { sandbox.stop() }
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"), backend: "pulse", environment: sandbox.environment)
            #expect(try await offCooperativePool { try Self.streams(sandbox) }.isEmpty)
            let follower = try daemon.followEvents()
            #expect(try await offCooperativePool { follower.waitForOutput(": connected") })
            let listen = try await daemon.request("POST", "/api/listen")
            #expect(listen.status == 202, "\(listen.body)")
            #expect(try await offCooperativePool { follower.waitForOutput("event: assistant.commandStarted") },
                "\(follower.stdoutSoFar)\n\(daemon.child.stderrSoFar)")
            let capturing = try await offCooperativePool {
                try Run.command("pactl", ["list", "short", "source-outputs"], environment: sandbox.environment).stdout
            }
            #expect(capturing.contains("bluez_source") || capturing.contains("protocol-native"), "no capture stream while capturing: '\(capturing)'")
            let output = try await daemon.stop(SIGTERM)
            #expect(output.status == 0, "\(output.stderr)")
            let left = try await offCooperativePool { Poll.until { (try? Self.streams(sandbox).isEmpty) == true } }
            #expect(left, "left on the server: \((try? Self.streams(sandbox)) ?? "?")")
            follower.signal(SIGTERM)
            _ = follower.finish(hangGuard: .seconds(5))
        }
    }
}
