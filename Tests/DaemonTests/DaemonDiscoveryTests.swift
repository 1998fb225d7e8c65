import Foundation
import Testing
import TestKit

extension DaemonSuites {
    /// glasses-audiod found on the network as Home Assistant finds ESPHome devices: a real
    /// `avahi-daemon` on a private system bus, read back with `avahi-browse`.
    @Suite("glasses-audiod advertised through Avahi (_esphomelib._tcp)", .serialized)
    struct DaemonDiscoveryTests {
        @Test("with Avahi, the ESPHome API is advertised with the TXT records Home Assistant reads (mac, friendly_name, api_encryption); without it, a log line and the daemon runs on")
        func advertisedThroughAvahi() async throws {
            let bus = try DBusDaemon()
            let environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]

            let alone = TemporaryDirectory()
            let withoutAvahi = try await DaemonProcess.start(dataDirectory: alone.path("data"), environment: environment)
            let saidSo = try await offCooperativePool { withoutAvahi.child.waitForError("avahi: not running") }
            let stoppedAlone = try await withoutAvahi.stop()
            #expect(saidSo && stoppedAlone.status == 0, "\(stoppedAlone.stderr)")

            let avahi = try AvahiDaemon(bus: bus)
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"), environment: environment)
            let advertised = try await offCooperativePool { daemon.child.waitForError("avahi: advertising _esphomelib._tcp") }
            let port = try PythonPeers.port(of: "esphome", in: daemon)
            let lines = try await offCooperativePool {
                var lines: [String] = []
                _ = Poll.until({
                    lines = (try? avahi.browse("_esphomelib._tcp")) ?? []
                    return lines.contains { $0.contains(";\(port);") }
                })
                return lines
            }
            let stopped = try await daemon.stop()
            #expect(advertised && stopped.status == 0, "\(stopped.stderr)")

            let line = try #require(lines.first { $0.contains(";\(port);") }, "\(lines) \(stopped.stderr)")
            let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            #expect(fields[3].hasPrefix("glasses-") && fields[4] == "_esphomelib._tcp", "\(line)")
            let txt = fields[9]
            #expect(txt.contains("\"friendly_name=Glasses\""), "\(txt)")
            #expect(txt.contains("\"api_encryption=Noise_NNpsk0_25519_ChaChaPoly_SHA256\""), "\(txt)")
            let mac = try #require(txt.split(separator: "\"").first { $0.hasPrefix("mac=") }, "\(txt)")
            #expect(mac.dropFirst(4).count == 12 && mac.dropFirst(4).allSatisfy(\.isHexDigit), "\(mac)")
            // The node name ends in the MAC's last three bytes, as the device info says.
            #expect(fields[3].hasSuffix(String(mac.suffix(6))), "\(fields[3]) \(mac)")
        }
    }
}
