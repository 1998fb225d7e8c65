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

extension RouteEngine {
    /// A person chose a profile: switch to it and leave the device there. A session that
    /// needs another profile later still gets it (and the device then follows the policy).
    mutating func requestProfileByPerson(_ profile: AudioProfile, on id: DeviceIdentifier, _ out: inout [RoutingOutput]) {
        guard let device = devices[id], device.availableProfiles.contains(profile) else { return }
        restoreTimers[id]?.cancel()
        foundProfiles[id] = nil
        overridden.insert(id)
        if device.activeProfile != profile { requestProfile(profile, on: id, &out) }
    }

    /// Puts devices no session holds back on the profile they were found on before a session
    /// switched them, and leaves them there: what a one-shot command does as it ends.
    mutating func restoreFoundProfiles(_ out: inout [RoutingOutput]) {
        let held = Set(sessions.compactMap { $0.state.holdsDevice ? $0.device : nil })
        for (id, found) in foundProfiles.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard !held.contains(id), let device = devices[id], device.linkState == .connected else { continue }
            foundProfiles[id] = nil
            restoreTimers[id]?.cancel()
            overridden.insert(id)  // the policy leaves it where it was found
            if device.activeProfile != found, device.availableProfiles.contains(found) {
                requestProfile(found, on: id, &out)
            }
        }
    }
}
