/// The auto selector's current pick, as a value that says when it changes (seed 000 §4.1,
/// `activeDeviceStream()` "updates whenever the device list changes").
public struct AutoDeviceSelector: Sendable, Hashable {
    /// The device picked from the last list seen.
    public private(set) var activeDevice: DeviceIdentifier?

    public init() {}

    /// Re-selects from a new device list; returns the new pick when it differs from the last one.
    public mutating func update(from devices: [Device]) -> DeviceIdentifier?? {
        let pick = DeviceSelector.auto.activeDevice(in: devices)
        guard pick != activeDevice else { return nil }
        activeDevice = pick
        return .some(pick)
    }
}
