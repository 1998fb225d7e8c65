/// A sink or source as libpulse describes it, copied out of the callback.
struct PulseEndpointInfo: Sendable {
    var index: UInt32
    var name: String
    var description: String
    var rate: Int
    var channels: Int
    var properties: [String: String]
    var running: Bool
    var suspended: Bool
    /// For a source: the sink it monitors, when it is a monitor.
    var isMonitor: Bool
    var card: UInt32
}
