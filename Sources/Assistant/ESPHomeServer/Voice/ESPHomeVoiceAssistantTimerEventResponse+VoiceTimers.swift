import Assistant
import ESPHomeAPI

extension ESPHomeVoiceAssistantTimerEventResponse {
    /// What Home Assistant's timer event says happened, for ``VoiceTimers``: a start (and its
    /// state when it does not start full and running), an update (`seconds_left` of it now,
    /// paused when not active), a cancel or a finish. An unnamed timer has no name.
    var voiceTimerChanges: [VoiceTimers.Change] {
        let label = name.isEmpty ? nil : name
        let left = Duration.seconds(Int(secondsLeft))
        switch eventType {
        case .voiceAssistantTimerStarted:
            let started = VoiceTimers.Change.started(id: timerID, name: label, total: .seconds(Int(totalSeconds)))
            guard secondsLeft != totalSeconds || !isActive else { return [started] }
            return [started, .updated(id: timerID, left: left, isActive: isActive)]
        case .voiceAssistantTimerUpdated: return [.updated(id: timerID, left: left, isActive: isActive)]
        case .voiceAssistantTimerCancelled: return [.cancelled(id: timerID)]
        case .voiceAssistantTimerFinished: return [.finished(id: timerID)]
        case .UNRECOGNIZED: return []
        }
    }
}
