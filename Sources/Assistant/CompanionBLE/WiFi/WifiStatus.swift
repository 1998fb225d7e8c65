/// The Wi-Fi Config service's status, in seed 001's words, from NetworkManager's states
/// (nm-dbus-types: NMDeviceState, NMActiveConnectionState).
public enum WifiStatus: String, Sendable, Equatable {
    case disconnected, connecting, connected, failed

    /// From a device's `State` (unknown, unmanaged, unavailable and disconnected → disconnected;
    /// prepare … secondaries → connecting; activated → connected; deactivating → disconnected;
    /// failed → failed).
    public init(deviceState: UInt32) {
        switch deviceState {
        case 40..<100: self = .connecting
        case 100: self = .connected
        case 120: self = .failed
        default: self = .disconnected
        }
    }

    /// From an active connection's `State` (activating → connecting, activated → connected,
    /// unknown / deactivating / deactivated → disconnected).
    public init(activeConnectionState: UInt32) {
        switch activeConnectionState {
        case 1: self = .connecting
        case 2: self = .connected
        default: self = .disconnected
        }
    }

    /// Whether a device's `StateChanged` from `old` to `new` changes what the app is told:
    /// NetworkManager moves a failed device on to disconnected at once, and the app should go on
    /// reading "failed" (and why) until something new starts.
    public static func says(new: UInt32, old: UInt32) -> Bool {
        !(old == 120 && WifiStatus(deviceState: new) == .disconnected)
    }

    /// Why a device failed, from the reason of its `StateChanged` (NMDeviceStateReason), in words.
    public static func failureReason(_ code: UInt32) -> String {
        switch code {
        case 7: "NetworkManager has no password for the network (reason 7)"
        case 8, 9, 10, 11: "the network refused the connection; is the password right? (reason \(code))"
        case 53: "no network with that SSID is in range (reason 53)"
        default: "NetworkManager could not connect (device state reason \(code))"
        }
    }
}
