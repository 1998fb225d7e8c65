/// Every characteristic the glasses' host serves to the companion app: seed 001's, with the
/// flags this host gives them. What the seed left open to anyone in range (the API key, the
/// pairing code, every setting) is behind an encrypted link here, and the pairing code is
/// written by the app, never read from us (see ``PairingWindow``).
public enum CompanionCharacteristic: String, Sendable, Hashable, CaseIterable {
    // Device Information (0x180A)
    case manufacturerName, modelNumber, serialNumber, firmwareRevision
    // Battery (0x180F)
    case batteryLevel
    // Authentication (6E400001)
    case apiKey, pairingCode, pairingStatus
    // Settings (6E400002)
    case personality, assistantName, wakeWordConfig, voiceSettings, statusMode
    // Quick Actions (6E400003)
    case cameraControl, systemControl, actionResponse
    // Data Sync (6E400004)
    case notesData, todosData
    // Wi-Fi Config (6E400005)
    case wifiSSID, wifiPassword, wifiStatus, networkInfo

    /// The service this characteristic belongs to.
    public var service: CompanionService {
        switch self {
        case .manufacturerName, .modelNumber, .serialNumber, .firmwareRevision: .deviceInformation
        case .batteryLevel: .battery
        case .apiKey, .pairingCode, .pairingStatus: .authentication
        case .personality, .assistantName, .wakeWordConfig, .voiceSettings, .statusMode: .settings
        case .cameraControl, .systemControl, .actionResponse: .quickActions
        case .notesData, .todosData: .dataSync
        case .wifiSSID, .wifiPassword, .wifiStatus, .networkInfo: .wifiConfig
        }
    }

    public var uuid: String {
        switch self {
        case .manufacturerName: CompanionUUID.sig(0x2A29)
        case .modelNumber: CompanionUUID.sig(0x2A24)
        case .serialNumber: CompanionUUID.sig(0x2A25)
        case .firmwareRevision: CompanionUUID.sig(0x2A26)
        case .batteryLevel: CompanionUUID.sig(0x2A19)
        case .apiKey: CompanionUUID.companion(0x0101)
        case .pairingCode: CompanionUUID.companion(0x0102)
        case .pairingStatus: CompanionUUID.companion(0x0103)
        case .personality: CompanionUUID.companion(0x0201)
        case .assistantName: CompanionUUID.companion(0x0202)
        case .wakeWordConfig: CompanionUUID.companion(0x0203)
        case .voiceSettings: CompanionUUID.companion(0x0204)
        case .statusMode: CompanionUUID.companion(0x0205)
        case .cameraControl: CompanionUUID.companion(0x0301)
        case .systemControl: CompanionUUID.companion(0x0302)
        case .actionResponse: CompanionUUID.companion(0x0303)
        case .notesData: CompanionUUID.companion(0x0401)
        case .todosData: CompanionUUID.companion(0x0402)
        case .wifiSSID: CompanionUUID.companion(0x0501)
        case .wifiPassword: CompanionUUID.companion(0x0502)
        case .wifiStatus: CompanionUUID.companion(0x0503)
        case .networkInfo: CompanionUUID.companion(0x0504)
        }
    }

    /// BlueZ's flags. Device information, the battery and the pairing window's state are open
    /// (the app needs them before it is paired); everything else asks for an encrypted link.
    /// The API key is read with `encrypt-read`: the link is encrypted by the phone's LE pairing
    /// (Just Works, as the host has no display for a passkey) and the spoken code the app wrote
    /// on that same link is what authenticates it.
    public var flags: [GATTFlag] {
        switch self {
        case .manufacturerName, .modelNumber, .serialNumber, .firmwareRevision: [.read]
        case .batteryLevel: [.read, .notify]
        case .apiKey: [.encryptRead]
        case .pairingCode: [.read, .encryptWrite, .notify]
        case .pairingStatus: [.read, .encryptWrite, .notify]
        case .personality, .assistantName, .wakeWordConfig, .voiceSettings: [.encryptRead, .encryptWrite]
        case .statusMode, .actionResponse, .wifiStatus: [.encryptRead, .notify]
        case .cameraControl, .systemControl, .wifiSSID, .wifiPassword: [.encryptWrite]
        case .notesData, .todosData: [.encryptRead, .encryptWrite, .notify]
        case .networkInfo: [.encryptRead]
        }
    }

    /// What a written value must be.
    public var format: CompanionValueFormat {
        switch self {
        case .manufacturerName, .modelNumber, .serialNumber, .firmwareRevision, .apiKey, .statusMode, .actionResponse, .wifiStatus,
            .networkInfo, .batteryLevel:
            .readOnly
        case .pairingCode: .pairingCode
        case .pairingStatus: .singleByte
        case .personality, .assistantName, .cameraControl, .systemControl: .text(maxBytes: 64)
        case .wifiSSID: .text(maxBytes: 32)
        case .wifiPassword: .text(maxBytes: 63)
        case .wakeWordConfig, .voiceSettings: .jsonObject
        case .notesData, .todosData: .jsonArray
        }
    }

    /// Whether only a phone that proved a spoken code may use it.
    public var needsPairedPhone: Bool {
        switch service {
        case .deviceInformation, .battery, .authentication: false
        case .settings, .quickActions, .dataSync, .wifiConfig: true
        }
    }

    public var canRead: Bool { flags.contains(where: \.allowsRead) }
    public var canWrite: Bool { flags.contains(where: \.allowsWrite) }
    public var canNotify: Bool { flags.contains(where: \.allowsNotify) }

    /// The name in seed 001's words, for the user description descriptor and our log.
    public var title: String {
        switch self {
        case .manufacturerName: "Manufacturer Name"
        case .modelNumber: "Model Number"
        case .serialNumber: "Serial Number"
        case .firmwareRevision: "Firmware Revision"
        case .batteryLevel: "Battery Level"
        case .apiKey: "API Key"
        case .pairingCode: "Pairing Code"
        case .pairingStatus: "Pairing Status"
        case .personality: "Personality"
        case .assistantName: "Assistant Name"
        case .wakeWordConfig: "Wake Word Config"
        case .voiceSettings: "Voice Settings"
        case .statusMode: "Status Mode"
        case .cameraControl: "Camera Control"
        case .systemControl: "System Control"
        case .actionResponse: "Action Response"
        case .notesData: "Notes Data"
        case .todosData: "Todos Data"
        case .wifiSSID: "WiFi SSID"
        case .wifiPassword: "WiFi Password"
        case .wifiStatus: "WiFi Status"
        case .networkInfo: "Network Info"
        }
    }

    public static func named(uuid: String) -> CompanionCharacteristic? {
        allCases.first { $0.uuid == uuid.lowercased() }
    }
}

/// Seed 001's services, in the order they are exported.
public enum CompanionService: String, Sendable, Hashable, CaseIterable {
    case deviceInformation, battery, authentication, settings, quickActions, dataSync, wifiConfig

    public var uuid: String {
        switch self {
        case .deviceInformation: CompanionUUID.deviceInformation
        case .battery: CompanionUUID.battery
        case .authentication: CompanionUUID.authentication
        case .settings: CompanionUUID.settings
        case .quickActions: CompanionUUID.quickActions
        case .dataSync: CompanionUUID.dataSync
        case .wifiConfig: CompanionUUID.wifiConfig
        }
    }

    public var characteristics: [CompanionCharacteristic] { CompanionCharacteristic.allCases.filter { $0.service == self } }
}
