extension RouteEngine {
    /// The profile a session needs on a device: voice for the mic; for the speaker alone, the
    /// profile the card is on or going to (no switch), else the resting one.
    func neededProfile(for usage: SessionUsage, on device: Device) -> AudioProfile {
        if usage.needsMicrophone { return .voice }
        if let pending = requestedProfiles[device.identifier], pending.hasSpeaker { return pending }
        if device.activeProfile.hasSpeaker { return device.activeProfile }
        let resting = configuration.policy.restingProfile
        if device.availableProfiles.contains(resting) { return resting }
        return device.availableProfiles.first { $0.hasSpeaker } ?? resting
    }

    /// Puts idle devices back on the policy's resting profile: voiceFirst at once, mediaFirst
    /// after the restore timer's grace. Devices someone else switched are left alone.
    mutating func applyPolicy(_ out: inout [RoutingOutput]) {
        guard isServerUp else { return }
        let held = Set(sessions.compactMap { $0.state.holdsDevice ? $0.device : nil })
        for device in devices.devices where device.linkState == .connected {
            let id = device.identifier
            guard !held.contains(id), requestedProfiles[id] == nil, !overridden.contains(id),
                device.compatibility != .unsupported
            else { continue }
            switch configuration.policy {
            case .voiceFirst:
                if device.activeProfile == .media && device.availableProfiles.contains(.voice) {
                    requestProfile(.voice, on: id, &out)
                }
            case .mediaFirst:
                guard device.activeProfile == .voice && device.availableProfiles.contains(.media) else {
                    restoreTimers[id]?.cancel()
                    continue
                }
                var timer = restoreTimers[id] ?? RestoreTimer(tuning: configuration.restore)
                if timer.deadline == nil { timer.microphoneReleased(at: now) }
                if timer.isDue(at: now) {
                    timer.restored(at: now)
                    requestProfile(.media, on: id, &out)
                }
                restoreTimers[id] = timer
            }
        }
    }
}
