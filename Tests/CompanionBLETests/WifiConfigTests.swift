import CompanionBLE
import DBusKit
import Foundation
import TestKit
import Testing

/// The Wi-Fi Config service's pure parts: NetworkManager's states in seed 001's words, the
/// connection built from the app's SSID and password, and Network Info's JSON.
@Suite("Wi-Fi Config (pure)", .oneAtATime)
struct WifiConfigTests {
    @Test("NetworkManager's device states as the status the app reads", arguments: [
        (UInt32(0), WifiStatus.disconnected), (10, .disconnected), (20, .disconnected), (30, .disconnected),
        (40, .connecting), (50, .connecting), (60, .connecting), (70, .connecting), (80, .connecting), (90, .connecting),
        (100, .connected), (110, .disconnected), (120, .failed),
    ])
    func deviceStates(state: UInt32, status: WifiStatus) {
        #expect(WifiStatus(deviceState: state) == status)
    }

    @Test("an active connection's states as the status")
    func activeConnectionStates() {
        #expect((0...4).map { WifiStatus(activeConnectionState: $0) } == [.disconnected, .connecting, .connected, .disconnected, .disconnected])
        #expect(WifiStatus.failureReason(53).contains("SSID"))
        #expect(WifiStatus.failureReason(7).contains("password"))
        // NetworkManager's failed → disconnected keeps "failed"; disconnected → prepare is news.
        #expect(!WifiStatus.says(new: 30, old: 120))
        #expect(WifiStatus.says(new: 40, old: 30) && WifiStatus.says(new: 40, old: 120) && WifiStatus.says(new: 30, old: 100))
    }

    @Test("the SSID and password become a WPA-PSK infrastructure connection for AddAndActivateConnection")
    func settingsDictionary() throws {
        let settings = try WifiConnectionSettings.make(ssid: "Café 5G", password: "correct horse")
        #expect(settings.signature == "a{sa{sv}}")
        guard case .dictionary(_, _, let entries) = settings else { throw TestFailure("not a dictionary: \(settings)") }
        var sections: [String: [String: DBusValue]] = [:]
        for entry in entries { sections[entry.key.string ?? ""] = entry.value.propertyMap }
        #expect(sections.keys.sorted() == ["802-11-wireless", "802-11-wireless-security", "connection"])
        #expect(sections["connection"]?["type"]?.string == "802-11-wireless")
        #expect(sections["connection"]?["id"]?.string == "Café 5G")
        #expect(sections["802-11-wireless"]?["ssid"]?.byteArray == Array("Café 5G".utf8))
        #expect(sections["802-11-wireless"]?["ssid"]?.signature == "ay")
        #expect(sections["802-11-wireless"]?["mode"]?.string == "infrastructure")
        #expect(sections["802-11-wireless-security"]?["key-mgmt"]?.string == "wpa-psk")
        #expect(sections["802-11-wireless-security"]?["psk"]?.string == "correct horse")
    }

    @Test("passwords WPA cannot take and empty or long SSIDs are refused before NetworkManager is asked")
    func refusals() {
        #expect(throws: GATTError.self) { try WifiConnectionSettings.make(ssid: "Home", password: "short") }
        #expect(throws: GATTError.self) { try WifiConnectionSettings.make(ssid: "Home", password: String(repeating: "x", count: 64)) }
        #expect(throws: GATTError.self) { try WifiConnectionSettings.make(ssid: "", password: "long enough") }
        #expect(throws: GATTError.self) { try WifiConnectionSettings.make(ssid: String(repeating: "s", count: 33), password: "long enough") }
        #expect((try? WifiConnectionSettings.make(ssid: "Home", password: "12345678")) != nil)
    }

    @Test("Network Info: seed 001's ip, subnet and gateway when connected; the reason when it failed")
    func networkInfo() throws {
        #expect(IPv4Address.mask(prefix: 24) == "255.255.255.0")
        #expect(IPv4Address.mask(prefix: 20) == "255.255.240.0")
        #expect(IPv4Address.mask(prefix: 0) == "0.0.0.0")
        #expect(IPv4Address.mask(prefix: 32) == "255.255.255.255")
        let connected = WifiReport(status: .connected, address: IPv4Address(address: "192.168.1.100", prefix: 24, gateway: "192.168.1.1"))
        #expect(String(decoding: connected.networkInfo, as: UTF8.self)
            == #"{"gateway":"192.168.1.1","ip":"192.168.1.100","status":"connected","subnet":"255.255.255.0"}"#)
        let failed = WifiReport(status: .failed, reason: "NetworkManager has no Wi-Fi device")
        #expect(String(decoding: failed.networkInfo, as: UTF8.self) == #"{"error":"NetworkManager has no Wi-Fi device","status":"failed"}"#)
    }
}
