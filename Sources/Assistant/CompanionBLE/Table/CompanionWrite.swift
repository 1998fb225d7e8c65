public import Foundation
public import Store

/// A written value, checked and decoded: what the app asks for.
public enum CompanionWrite: Sendable, Equatable {
    case pairingCode(String)
    case pairingStatus(UInt8)
    /// A settings change, as the body of the REST API's `PUT /api/settings/<field>`: the same
    /// path checks and stores it.
    case setting(SettingsChange.Field, body: Data)
    case camera(String)
    case system(SystemCommand)
    case wifiSSID(String)
    case wifiPassword(String)
    case notes(Data)
    case todos(Data)

    /// Seed 001's system control commands. `restart` restarts the service, not the machine.
    public enum SystemCommand: String, Sendable, Equatable, CaseIterable {
        case sleep, wake, restart
    }

    /// The largest attribute value ATT carries (Core spec Vol 3 Part F 3.2.9).
    public static let largestValue = 512

    /// Checks `bytes` written at `offset` to `characteristic` and decodes them. Every refusal is
    /// the BlueZ error a client expects: a value too long or short → `InvalidValueLength`, not
    /// UTF-8 / not the JSON asked for / an unknown command → `InvalidArguments`, a part of a long
    /// write → `InvalidOffset`, a read-only characteristic → `NotPermitted`.
    public static func decode(_ bytes: [UInt8], offset: Int = 0, to characteristic: CompanionCharacteristic) throws(GATTError) -> CompanionWrite {
        guard characteristic.canWrite else { throw GATTError(.notPermitted, "\(characteristic.title) is read-only") }
        guard bytes.count <= largestValue else {
            throw GATTError(.invalidValueLength, "\(characteristic.title): \(bytes.count) bytes, more than the \(largestValue) an attribute holds")
        }
        guard offset == 0 else {
            throw GATTError(.invalidOffset, "\(characteristic.title) is written whole (offset \(offset)); negotiate a larger MTU")
        }
        switch characteristic.format {
        case .readOnly:
            throw GATTError(.notPermitted, "\(characteristic.title) is read-only")
        case .pairingCode:
            guard bytes.count == PairingCode.length else {
                throw GATTError(.invalidValueLength, "the pairing code is \(PairingCode.length) digits, got \(bytes.count) bytes")
            }
            guard let code = PairingCode(text: String(decoding: bytes, as: UTF8.self)) else {
                throw GATTError(.invalidArguments, "the pairing code is \(PairingCode.length) ASCII digits")
            }
            return .pairingCode(code.digits)
        case .singleByte:
            guard bytes.count == 1 else { throw GATTError(.invalidValueLength, "\(characteristic.title) is one byte, got \(bytes.count)") }
            return .pairingStatus(bytes[0])
        case .text(let maxBytes):
            let text = try self.text(bytes, characteristic, maxBytes: maxBytes)
            return try textWrite(text, to: characteristic)
        case .jsonObject:
            let data = try json(bytes, characteristic, wantsArray: false)
            return .setting(characteristic == .wakeWordConfig ? .wakeWord : .voice, body: data)
        case .jsonArray:
            let data = try json(bytes, characteristic, wantsArray: true)
            let list: DataSyncList = characteristic == .notesData ? .notes : .todos
            try list.check(data)
            return list == .notes ? .notes(data) : .todos(data)
        }
    }

    private static func text(_ bytes: [UInt8], _ characteristic: CompanionCharacteristic, maxBytes: Int) throws(GATTError) -> String {
        guard (1...maxBytes).contains(bytes.count) else {
            throw GATTError(.invalidValueLength, "\(characteristic.title) is 1...\(maxBytes) bytes of UTF-8, got \(bytes.count)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw GATTError(.invalidArguments, "\(characteristic.title) is UTF-8 text; the value is not")
        }
        return text
    }

    private static func textWrite(_ text: String, to characteristic: CompanionCharacteristic) throws(GATTError) -> CompanionWrite {
        switch characteristic {
        case .personality: return .setting(.personality, body: body(["personality": text]))
        case .assistantName: return .setting(.name, body: body(["name": text]))
        case .cameraControl: return .camera(text)
        case .wifiSSID: return .wifiSSID(text)
        case .wifiPassword: return .wifiPassword(text)
        case .systemControl:
            guard let command = SystemCommand(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()) else {
                let known = SystemCommand.allCases.map(\.rawValue).joined(separator: ", ")
                throw GATTError(.invalidArguments, "System Control takes one of \(known); got '\(text.prefix(20))'")
            }
            return .system(command)
        default:
            throw GATTError(.notPermitted, "\(characteristic.title) takes no text")
        }
    }

    /// The REST API's body for a text setting.
    private static func body(_ object: [String: String]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    private static func json(_ bytes: [UInt8], _ characteristic: CompanionCharacteristic, wantsArray: Bool) throws(GATTError) -> Data {
        let kind = wantsArray ? "array" : "object"
        guard !bytes.isEmpty else { throw GATTError(.invalidValueLength, "\(characteristic.title) is a JSON \(kind); the value is empty") }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw GATTError(.invalidArguments, "\(characteristic.title) is UTF-8 JSON; the value is not UTF-8")
        }
        let data = Data(bytes)
        let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        let matches = wantsArray ? parsed is [Any] : parsed is [String: Any]
        guard matches else { throw GATTError(.invalidArguments, "\(characteristic.title) is a JSON \(kind); the value is not") }
        return data
    }
}
