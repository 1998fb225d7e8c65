public import Foundation
public import Store

/// What the companion app's GATT side needs from the daemon around it: the one settings path,
/// the assistant's controls, the speaker, the event bus. The daemon implements it; nothing
/// here knows HTTP or audio.
public protocol CompanionHost: Sendable {
    /// The REST API's key, given once to a phone that proved a spoken code.
    var apiKey: String { get }
    /// The settings in force.
    var settings: AssistantSettings { get }
    /// Changes one setting along the daemon's one settings path (the REST API's); a
    /// ``SettingsRefusal`` says what was wrong.
    func changeSetting(_ field: SettingsChange.Field, body: Data) async throws -> AssistantSettings
    /// Puts the assistant to sleep, wakes it, or restarts the service (a graceful stop, then the
    /// same program started again; called after the phone's write was answered).
    func control(_ command: CompanionWrite.SystemCommand) async
    /// Says `text` through the glasses.
    func speak(_ text: String) async
    /// Publishes a pairing event on the event bus.
    func publish(_ event: PairingEvent) async
    /// The host's model, serial and our version, for Device Information.
    var deviceInformation: CompanionDeviceInformation { get }
    /// The glasses' battery (percent), if BlueZ knows it.
    var batteryLevel: Int? { get }
    /// The Data Sync list the phone wrote last (a checked JSON array), nil when none was kept.
    func syncedList(_ list: DataSyncList) -> Data?
    /// Keeps a Data Sync list in place of the last one (all or nothing: a reader never sees a part).
    func storeList(_ list: DataSyncList, _ data: Data) throws
}

/// Device Information's values.
public struct CompanionDeviceInformation: Sendable, Equatable {
    public var manufacturer: String
    public var model: String
    public var serial: String
    public var firmware: String

    public init(manufacturer: String, model: String, serial: String, firmware: String) {
        self.manufacturer = manufacturer
        self.model = model
        self.serial = serial
        self.firmware = firmware
    }
}
