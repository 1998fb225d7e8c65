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

        @Test("Home Assistant's announcement over Wyoming plays on the emulated glasses' A2DP sink at a real PulseAudio; the card never switches to HFP; HA gets played")
        func oneWayAnnouncementStaysOnA2DP() async throws {
            let directory = TemporaryDirectory()
            let sandbox = try await offCooperativePool { [emulator] in try EmulatorSandbox(emulator: emulator, directory: directory, connected: true) }
            defer { sandbox.stop() }
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"), backend: "pulse", environment: sandbox.environment)
            let port = try PythonPeers.port(of: "wyoming", in: daemon)
            let ha = try PythonPeers.start("wyoming-peer", "ha_announce.py", ["127.0.0.1", "\(port)", "--seconds", "1.0"])
            let result = try await PythonPeers.summary(ha)
            let cards = try await offCooperativePool { try Run.command("pactl", ["list", "cards"], environment: sandbox.environment).stdout }
            let output = try await daemon.stop()
            #expect(output.status == 0, "\(output.stderr)")

            #expect(result["played"] as? Bool == true, "\(result)\n\(output.stderr)")
            #expect(output.stderr.contains("on media: sink bluez_sink.C0_FF_EE_00_00_02.a2dp_sink"), "\(output.stderr)")
            let changes = output.stderr.split(separator: "\n").filter { $0.contains("route changed") }
            #expect(!changes.contains { $0.contains("voice") }, "\(changes)")
            #expect(cards.contains("Active Profile: a2dp_sink"), "\(cards)")
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
