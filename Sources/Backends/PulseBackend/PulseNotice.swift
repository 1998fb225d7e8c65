/// What ``PulseContext/watch(onChange:)`` reports.
enum PulseNotice: Sendable {
    /// Something of this facility (`PA_SUBSCRIPTION_EVENT_SINK`…) was added, changed or removed.
    case changed(facility: UInt32)
    case serverLost
}
