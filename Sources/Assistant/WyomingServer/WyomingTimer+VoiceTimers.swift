public import Assistant
public import Wyoming

extension WyomingTimer {
    /// What Home Assistant's `timer-*` event says happened, for ``VoiceTimers``; nil when a
    /// `timer-started` or `timer-updated` lacks its seconds.
    public var voiceTimerChange: VoiceTimers.Change? {
        switch change {
        case .started: totalSeconds.map { .started(id: id, name: name, total: .seconds($0)) }
        // timer-updated's total_seconds is what is left (wyoming's TimerUpdated).
        case .updated: totalSeconds.map { .updated(id: id, left: .seconds($0), isActive: isActive ?? true) }
        case .cancelled: .cancelled(id: id)
        case .finished: .finished(id: id)
        }
    }
}
