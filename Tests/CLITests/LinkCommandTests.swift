import Foundation
import Testing
import TestKit

/// `glasses-audio connect|disconnect` and the battery in `devices`, against the
/// `glasses-emulator` sandbox (its own D-Bus with the emulated BlueZ, its own PulseAudio).
@Suite("glasses-audio connect and disconnect on the emulated BlueZ", .oneAtATime, .serialized)
struct LinkCommandTests {
    let audio = Run.productPath("glasses-audio")
    let emulator = Run.productPath("glasses-emulator")

    @Test("connect brings folded glasses up, their battery follows with the hands-free link, devices shows both, disconnect takes them down; bad names are refused")
    func connectAndDisconnect() async throws {
        let directory = TemporaryDirectory()
        let sandbox = try await offThread { [emulator] in try EmulatorSandbox(emulator: emulator, directory: directory, connected: false) }
        defer { sandbox.stop() }
        let env = sandbox.environment

        let before = try await offThread { [audio] in try Run.command(audio, ["devices"], environment: env) }
        #expect(before.stdout.contains("C0:FF:EE:00:00:02  Ray-Ban Meta Gen 2  [headset]  link disconnected, profile off"), "\(before.stdout)\(before.stderr)")

        let up = try await offThread { [audio] in try Run.command(audio, ["connect", "ray-ban"], environment: env) }
        #expect(up.status == 0, "\(up.stderr)")
        #expect(up.stdout.contains("connected the Ray-Ban Meta Gen 2 (C0:FF:EE:00:00:02)"))
        // The battery comes over the hands-free link, which the sound server takes a moment after
        // the connect (the glasses report as it comes up): the line has it or not, whichever came
        // first; both orders happen on the real stack.
        let link = up.stdout.split(separator: "\n").first { $0.contains("link connected") }.map(String.init)
        #expect(["  link connected, services resolved; offers hfp, a2dp-sink", "  link connected, services resolved, battery 80%; offers hfp, a2dp-sink"]
            .contains(link ?? ""), "\(up.stdout)")
        // Set-up: the report has come.
        _ = try await offThread { [audio] in Poll.until { (try? Run.command(audio, ["devices"], environment: env))?.stdout.contains("battery 80%") == true } }

        let again = try await offThread { [audio] in try Run.command(audio, ["connect", "C0:FF:EE:00:00:02", "--json"], environment: env) }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(report["changed"] as? Bool == false)
        #expect((report["device"] as? [String: Any])?["battery"] as? Int == 80)

        let listed = try await offThread { [audio] in try Run.command(audio, ["devices", "--json"], environment: env) }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let device = try #require((object["devices"] as? [[String: Any]])?.first)
        #expect(device["battery"] as? Int == 80)
        #expect(device["link_state"] as? String == "connected")

        let down = try await offThread { [audio] in try Run.command(audio, ["disconnect", "c0_ff_ee_00_00_02"], environment: env) }
        #expect(down.status == 0, "\(down.stderr)")
        #expect(down.stdout.contains("disconnected the Ray-Ban Meta Gen 2 (C0:FF:EE:00:00:02)"))

        let unknown = try await offThread { [audio] in try Run.command(audio, ["connect", "nope"], environment: env) }
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("BlueZ knows no device 'nope'; known: C0:FF:EE:00:00:02 (Ray-Ban Meta Gen 2)"))
        let off = try await offThread { [audio] in try Run.command(audio, ["connect", "ray-ban", "--profile", "off"], environment: env) }
        #expect(off.status == 2)
    }

    @Test("pair registers our agent, finds the glasses paired already, trusts and connects them; an unknown device is not found")
    func pairOnTheEmulator() async throws {
        let directory = TemporaryDirectory()
        let sandbox = try await offThread { [emulator] in try EmulatorSandbox(emulator: emulator, directory: directory, connected: false) }
        defer { sandbox.stop() }
        let env = sandbox.environment

        let paired = try await offThread { [audio] in try Run.command(audio, ["pair", "ray-ban", "--json"], environment: env) }
        #expect(paired.status == 0, "\(paired.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(paired.stdout.utf8)) as? [String: Any], "\(paired.stdout)")
        #expect(report["newly_paired"] as? Bool == false)
        #expect(report["connected"] as? Bool == true)
        let device = try #require(report["device"] as? [String: Any])
        #expect(device["address"] as? String == "C0:FF:EE:00:00:02")
        #expect(device["trusted"] as? Bool == true)

        let missing = try await offThread { [audio] in try Run.command(audio, ["pair", "AA:BB:CC:DD:EE:FF", "--discovery-seconds", "1"], environment: env) }
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no device 'AA:BB:CC:DD:EE:FF' found in 1.0 seconds of discovery"), "\(missing.stderr)")
    }

    @Test("without a system bus, connect says what is missing")
    func noBus() async throws {
        let directory = TemporaryDirectory()
        let result = try await offThread { [audio] in try Run.command(audio, ["connect", "ray-ban"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory.path("none"))"]) }
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot reach the bus at unix:path="))
        #expect(result.stderr.contains("is D-Bus running"))
    }
}
