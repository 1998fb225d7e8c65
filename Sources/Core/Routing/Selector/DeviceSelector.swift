/// Which device a session targets (seed 000 §4.1).
public enum DeviceSelector: Sendable, Hashable, CustomStringConvertible {
    /// The first connected device of the list, else the first known one; re-evaluated whenever
    /// the device list changes. Unsupported devices are never picked.
    case auto
    /// Always this device.
    case specific(DeviceIdentifier)

    /// The device this selector targets among `devices` (in the order they appeared), or `nil`.
    ///
    /// `.specific` names its device even when it is not (yet) in the list, so a session can
    /// wait for it and report ``StreamSessionError/deviceNotFound(_:)`` with its identifier.
    public func activeDevice(in devices: [Device]) -> DeviceIdentifier? {
        switch self {
        case .specific(let id):
            return id
        case .auto:
            let candidates = devices.filter { $0.compatibility != .unsupported }
            return (candidates.first { $0.linkState == .connected } ?? candidates.first)?.identifier
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .specific(let id): "device \(id)"
        }
    }
}
