import CompanionBLE
import Foundation
import Store
import TestKit
import Testing

/// The characteristic table against seed 001, and written values checked and decoded.
@Suite("Companion GATT table", .oneAtATime)
struct CompanionTableTests {
    @Test("the seed's service and characteristic UUIDs, with the flags this host gives them")
    func uuids() {
        #expect(CompanionService.allCases.map(\.uuid) == [
            "0000180a-0000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000-00805f9b34fb",
            "6e400001-b5a3-f393-e0a9-e50e24dcca9e", "6e400002-b5a3-f393-e0a9-e50e24dcca9e", "6e400003-b5a3-f393-e0a9-e50e24dcca9e",
            "6e400004-b5a3-f393-e0a9-e50e24dcca9e", "6e400005-b5a3-f393-e0a9-e50e24dcca9e",
        ])
        #expect(CompanionCharacteristic.apiKey.uuid == "6e400101-b5a3-f393-e0a9-e50e24dcca9e")
        #expect(CompanionCharacteristic.networkInfo.uuid == "6e400504-b5a3-f393-e0a9-e50e24dcca9e")
        #expect(CompanionCharacteristic.batteryLevel.uuid == "00002a19-0000-1000-8000-00805f9b34fb")
        #expect(CompanionCharacteristic.named(uuid: "6E400102-B5A3-F393-E0A9-E50E24DCCA9E") == .pairingCode)
        #expect(Set(CompanionCharacteristic.allCases.map(\.uuid)).count == CompanionCharacteristic.allCases.count)
        // Safer than the seed: the key and the settings only on an encrypted link, the code never read back.
        #expect(CompanionCharacteristic.apiKey.flags == [.encryptRead])
        #expect(CompanionCharacteristic.personality.flags == [.encryptRead, .encryptWrite])
        #expect(CompanionCharacteristic.pairingCode.flags == [.read, .encryptWrite, .notify])
        #expect(CompanionService.settings.characteristics.count == 5 && CompanionService.wifiConfig.characteristics.count == 4)
    }

    @Test(
        "bad writes are refused with the BlueZ error a client expects",
        arguments: [
            (CompanionCharacteristic.pairingCode, Array("12345".utf8), 0, GATTError.Kind.invalidValueLength),
            (.pairingCode, Array("12a456".utf8), 0, .invalidArguments),
            (.pairingStatus, [2, 0], 0, .invalidValueLength),
            (.personality, [0xFF, 0xFE], 0, .invalidArguments),
            (.personality, [], 0, .invalidValueLength),
            (.wakeWordConfig, Array("[1, 2]".utf8), 0, .invalidArguments),
            (.wakeWordConfig, Array("{\"keyword\": ".utf8), 0, .invalidArguments),
            (.voiceSettings, Array(repeating: 0x20, count: 513), 0, .invalidValueLength),
            (.notesData, Array("{}".utf8), 0, .invalidArguments),
            (.systemControl, Array("reboot".utf8), 0, .invalidArguments),
            (.apiKey, Array("x".utf8), 0, .notPermitted),
            (.wifiSSID, Array(repeating: 0x61, count: 33), 0, .invalidValueLength),
            (.assistantName, Array("Jarvis".utf8), 4, .invalidOffset),
        ])
    func badWrites(characteristic: CompanionCharacteristic, bytes: [UInt8], offset: Int, expected: GATTError.Kind) {
        #expect(throws: GATTError.self) { try CompanionWrite.decode(bytes, offset: offset, to: characteristic) }
        do {
            _ = try CompanionWrite.decode(bytes, offset: offset, to: characteristic)
        } catch {
            #expect(error.kind == expected, "\(error)")
            #expect(error.name == "org.bluez.Error." + expected.rawValue)
        }
    }

    @Test("good writes decode to what the app asks; text settings become the REST API's bodies")
    func goodWrites() throws {
        #expect(try CompanionWrite.decode(Array("007192".utf8), to: .pairingCode) == .pairingCode("007192"))
        #expect(try CompanionWrite.decode([2], to: .pairingStatus) == .pairingStatus(2))
        #expect(try CompanionWrite.decode(Array("witty".utf8), to: .personality) == .setting(.personality, body: Data(#"{"personality":"witty"}"#.utf8)))
        #expect(try CompanionWrite.decode(Array("Alfred".utf8), to: .assistantName) == .setting(.name, body: Data(#"{"name":"Alfred"}"#.utf8)))
        let wake = Data(#"{"keyword": "hey glasses", "sensitivity": 0.5}"#.utf8)
        #expect(try CompanionWrite.decode(Array(wake), to: .wakeWordConfig) == .setting(.wakeWord, body: wake))
        #expect(try CompanionWrite.decode(Array("Sleep".utf8), to: .systemControl) == .system(.sleep))
        // A body that passes the codec is then the settings path's to judge, as for the REST API.
        let body = try #require({ () -> Data? in
            if case .setting(_, let body) = try CompanionWrite.decode(Array("grumpy".utf8), to: .personality) { return body }
            return nil
        }())
        #expect(throws: SettingsRefusal.self) { try SettingsChange.apply(.personality, body: body, to: .defaults) }
    }

    @Test(
        "Data Sync: the seed's note and todo items, at most five; anything else refused with InvalidArguments naming the item",
        arguments: [
            (DataSyncList.notes, #"[{"id": "1", "content": "Remember to buy milk", "timestamp": "2025-11-01T10:00:00"}]"#, nil),
            (.notes, "[]", nil),
            (.todos, #"[{"task": "Finish project report", "priority": "high", "completed": false}, {"task": "Call mom"}]"#, nil),
            (.notes, #"[{"content": "a"}, {"content": "b"}, {"content": "c"}, {"content": "d"}, {"content": "e"}, {"content": "f"}]"#, "got 6"),
            (.notes, #"[{"id": "1"}]"#, #"item 0 needs "content""#),
            (.notes, #"[{"content": "  "}]"#, #"needs "content""#),
            (.notes, #"[{"content": "a"}, "b"]"#, "item 1 is not a JSON object"),
            (.notes, #"[{"content": "a", "secret": true}]"#, #"unknown field "secret""#),
            (.notes, #"[{"content": "a", "id": 7}]"#, "item 0 (id)"),
            (.todos, #"[{"task": "a", "priority": "urgent"}]"#, "item 0 (priority)"),
            (.todos, #"[{"task": "a"}, {"task": "b", "completed": 1}]"#, "item 1 (completed)"),
            (.todos, #"[{"content": "a"}]"#, #"unknown field "content""#),
        ])
    func dataSyncItems(list: DataSyncList, json: String, refusal: String?) {
        do {
            let write = try CompanionWrite.decode(Array(json.utf8), to: list.characteristic)
            #expect(refusal == nil, "accepted: \(json)")
            #expect(write == (list == .notes ? .notes(Data(json.utf8)) : .todos(Data(json.utf8))))
        } catch {
            #expect(error.kind == .invalidArguments, "\(error)")
            #expect(refusal.map { error.reason.contains($0) } == true, "\(error.reason)")
        }
    }

    @Test("the response before any action is the action response for 'ready', byte for byte")
    func readyResponse() {
        #expect(CompanionReadout.readyResponse == CompanionReadout.actionResponse(success: true, ["message": "ready"]))
    }

    @Test("reads: settings in the seed's formats, access by flags and pairing, long reads by offset")
    func reads() throws {
        let settings = AssistantSettings.defaults
        #expect(CompanionReadout.setting(.personality, of: settings) == Array("friendly".utf8))
        let wake = try JSONSerialization.jsonObject(with: Data(CompanionReadout.setting(.wakeWordConfig, of: settings)!)) as? [String: Any]
        #expect(wake?["keyword"] as? String == "hey glasses" && wake?["sensitivity"] as? Double == 0.5)
        let window = PairingWindow(pairedDevices: ["/dev_paired"])
        #expect(throws: GATTError(.notAuthorized, "Personality is for a paired phone: pair with the code the glasses speak first")) {
            try CompanionAccess.read(.personality, device: "/dev_other", window: window)
        }
        try CompanionAccess.read(.personality, device: "/dev_paired", window: window)
        try CompanionAccess.read(.pairingStatus, device: nil, window: window)
        #expect(throws: GATTError.self) { try CompanionAccess.read(.wifiPassword, device: "/dev_paired", window: window) }
        #expect(throws: GATTError(.notSupported, "API Key does not notify")) { try CompanionAccess.notify(.apiKey) }
        #expect(try CompanionAccess.slice([1, 2, 3, 4], offset: 3) == [4])
        #expect(try CompanionAccess.slice([1, 2], offset: 2) == [])
        #expect(throws: GATTError.self) { try CompanionAccess.slice([1, 2], offset: 3) }
    }
}
