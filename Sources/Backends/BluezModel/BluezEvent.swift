public import Routing

/// What changed in BlueZ's objects, as the model saw it.
public enum BluezEvent: Sendable, Hashable {
    /// org.bluez left the bus (`false`) or is there again with its objects loaded (`true`).
    case serviceAvailability(Bool)
    case adapterAppeared(BluezAdapter)
    /// Powered, Discovering, Alias or Address changed.
    case adapterChanged(BluezAdapter)
    case adapterGone(path: String)
    case deviceAppeared(BluezDevice)
    /// A property other than the link or battery changed (Alias, Paired, Trusted, UUIDs,
    /// ServicesResolved…): the device as it is now.
    case deviceChanged(BluezDevice)
    case deviceGone(BluezDevice)
    /// `Device1.Connected` changed on a device the model already knew.
    case linkChanged(DeviceIdentifier, LinkState)
    /// `Battery1.Percentage` appeared, changed or went away (nil).
    case batteryChanged(DeviceIdentifier, Int?)
    /// A transport appeared or changed state, codec or volume.
    case transportChanged(DeviceIdentifier, BluezTransport)
    case transportGone(DeviceIdentifier, BluezTransport)

    /// The route event this is, for the events the route engine reads directly: link,
    /// battery and transport state. Devices appearing and going are the sound server's to
    /// report (it knows their profiles), so they have none.
    public var routeEvent: RouteEvent? {
        switch self {
        case .linkChanged(let id, let state): .linkChanged(id, state)
        case .batteryChanged(let id, let percentage): .batteryChanged(id, percentage)
        case .transportChanged(let id, let transport): .transportChanged(id, transport.state)
        case .serviceAvailability(let up): up ? .bluetoothBack : .bluetoothLost
        case .adapterAppeared, .adapterChanged, .adapterGone, .deviceAppeared, .deviceChanged, .deviceGone, .transportGone: nil
        }
    }
}
