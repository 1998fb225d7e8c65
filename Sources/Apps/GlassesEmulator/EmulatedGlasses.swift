import BluetoothIDs
public import DeviceProfiles

/// What the emulated glasses look like over Bluetooth: their name and address, the class of
/// device, and which audio services they offer.
public struct EmulatedGlasses: Sendable, Equatable {
    public var name: String
    public var address: String
    /// Whether they offer A2DP (a headset without it has only the voice link).
    public var offersMedia: Bool
    public var mediaSampleRate: Int
    /// Class of device: 0x240404 is "audio/video, wearable headset".
    public var deviceClass: UInt32
    /// Whether they send their battery level as soon as the hands-free link is up (most
    /// headsets send `AT+BIEV`/`AT+IPHONEACCEV` right after the service-level connection);
    /// otherwise only when told (``GlassesEmulator/setBattery(_:)``), as the lab's glasses.
    public var reportsBatteryWithHandsFree: Bool

    public init(
        name: String, address: String, offersMedia: Bool = true, mediaSampleRate: Int = 44100, deviceClass: UInt32 = 0x240404,
        reportsBatteryWithHandsFree: Bool = true
    ) {
        self.name = name
        self.address = address.uppercased()
        self.offersMedia = offersMedia
        self.mediaSampleRate = mediaSampleRate
        self.deviceClass = deviceClass
        self.reportsBatteryWithHandsFree = reportsBatteryWithHandsFree
    }

    /// The glasses a device profile describes, with the name that profile recognises.
    public init(profile: DeviceProfile) {
        self.init(
            name: profile.match.names.first ?? profile.name, address: profile.simulation.address,
            offersMedia: profile.media != nil, mediaSampleRate: profile.media?.sampleRate ?? 44100)
    }

    /// The services the remote device advertises (its roles).
    var uuids: [String] {
        (offersMedia ? [BluetoothUUID.a2dpSink, BluetoothUUID.avrcpTarget, BluetoothUUID.avrcpController] : [])
            + [BluetoothUUID.handsfree]
    }
}

public enum EmulatorError: Error, Equatable, CustomStringConvertible {
    case system(String)
    /// A request the glasses cannot take (a value out of range).
    case invalid(String)

    public var description: String {
        switch self {
        case .system(let message), .invalid(let message): message
        }
    }
}
