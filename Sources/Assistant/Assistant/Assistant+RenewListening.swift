extension Assistant {
    /// The voice stage changed (Home Assistant chose another wake word): a session that opens or
    /// listens for the wake word starts again, so its pipelines open on the new stage. Quietly:
    /// the assistant neither sleeps nor wakes (no `asleep`/`awake`), a push-to-talk waiting for
    /// its route stays one, and a round trip under way (or a timer ringing) is left alone; its
    /// next listening opens on the new stage anyway.
    mutating func renewListening(_ out: inout [AssistantAction]) {
        switch phase {
        case .opening:
            out += [.cancelOpening, .openRoute]
        case .listening where ring == nil:
            phase = .opening
            skipWake = false
            listenDeadline = nil
            out += [.releaseRoute, .openRoute]
        default:
            break
        }
    }
}
