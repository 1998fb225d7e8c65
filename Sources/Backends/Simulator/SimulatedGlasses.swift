import Foundation
public import AudioCore
public import DeviceProfiles
public import Routing

/// One pair of simulated glasses (seed 000 §8.3, the mock device kit), as a pure value.
///
/// Physical controls (power, hinges, wear, radio range) and profile requests go in; the
/// ``RouteEvent``s a real Bluetooth stack would report come out. Time only moves through
/// ``advance(by:)``, so tests decide exactly when a profile switch completes.
public struct SimulatedGlasses: Sendable {
    /// A physical or radio change a person (or a test) makes to the glasses.
    public enum Control: String, Sendable, CaseIterable, Codable {
        case powerOn, powerOff, fold, unfold, don, doff, linkUp, linkDown
    }

    public let profile: DeviceProfile
    public let identifier: DeviceIdentifier
    /// How long a profile switch takes; starts at the profile's value, tests may change it.
    public var profileSwitchDelay: Duration
    public var mic: MicFeed

    public private(set) var isPowered = false
    public private(set) var isFolded = true
    public private(set) var isWorn = false
    public private(set) var isInRange = true
    public private(set) var linkState: LinkState = .disconnected
    public private(set) var activeProfile: AudioProfile = .off
    /// A requested profile and the time left until the switch completes.
    public private(set) var pendingSwitch: (profile: AudioProfile, remaining: Duration)?
    /// Everything played into the speaker, mono at the active profile's rate (nothing when
    /// ``recordsSpeaker`` is off).
    public private(set) var speakerOutput: [AudioBuffer] = []
    /// Whether ``speakerOutput`` keeps what is played. A service on the simulated glasses that
    /// saves no recording turns it off: the record grew with every reply (5 MB of a listening
    /// daemon's heap after 95 s, docs/benchmarks.md "The daemon").
    public let recordsSpeaker: Bool

    public init(profile: DeviceProfile, mic: MicFeed? = nil, recordsSpeaker: Bool = true) {
        self.profile = profile
        self.recordsSpeaker = recordsSpeaker
        identifier = DeviceIdentifier(profile.simulation.address)
        profileSwitchDelay = profile.simulation.profileSwitch
        self.mic = mic ?? .silence(rate: profile.voice.sampleRate)
    }

    /// The device as a backend reports it.
    public var device: Device {
        Device(
            identifier: identifier, name: profile.name, deviceType: profile.id, linkState: linkState,
            activeProfile: activeProfile, availableProfiles: profile.availableProfiles)
    }

    /// Whether the mic is carrying audio: linked, on the voice profile, and worn.
    public var micIsLive: Bool { linkState == .connected && activeProfile == .voice && isWorn }

    /// The transport state a BlueZ media transport would show.
    public var transport: TransportState {
        guard linkState == .connected, activeProfile != .off else { return .idle }
        return isWorn ? .active : .idle
    }

    /// Sinks and sources that exist in the current state, named as PulseAudio names them.
    public var endpoints: [AudioEndpoint] {
        guard linkState == .connected else { return [] }
        let address = identifier.rawValue.replacingOccurrences(of: ":", with: "_")
        switch activeProfile {
        case .off:
            return []
        case .media:
            return [AudioEndpoint(
                name: "bluez_sink.\(address).a2dp_sink", direction: .sink, description: "\(profile.name) (media)",
                device: identifier, profile: .media, sampleRate: profile.media?.sampleRate ?? 48000,
                channels: profile.media?.channels ?? 2)]
        case .voice:
            let rate = profile.voice.sampleRate
            return [
                AudioEndpoint(
                    name: "bluez_sink.\(address).handsfree_head_unit", direction: .sink,
                    description: "\(profile.name) (voice)", device: identifier, profile: .voice,
                    sampleRate: rate, channels: 1),
                AudioEndpoint(
                    name: "bluez_source.\(address).handsfree_head_unit", direction: .source,
                    description: "\(profile.name) mic", device: identifier, profile: .voice,
                    sampleRate: rate, channels: 1),
            ]
        }
    }

    /// Applies a physical control; returns what a Bluetooth stack would report.
    public mutating func apply(_ control: Control) -> [RouteEvent] {
        let before = snapshot
        switch control {
        case .powerOn: isPowered = true
        case .powerOff: isPowered = false
        case .fold: isFolded = true
        case .unfold: isFolded = false
        case .don: isWorn = true
        case .doff: isWorn = false
        case .linkUp: isInRange = true
        case .linkDown: isInRange = false
        }
        let shouldConnect = isPowered && !isFolded && isInRange
        if shouldConnect && linkState == .disconnected {
            linkState = .connected
            activeProfile = profile.media == nil ? .voice : profile.simulation.defaultProfile
        } else if !shouldConnect && linkState != .disconnected {
            linkState = .disconnected
            activeProfile = .off
            pendingSwitch = nil
        }
        return events(from: before)
    }

    /// Asks for a profile. Returns at once with no events; the switch completes after
    /// ``profileSwitchDelay`` of ``advance(by:)``.
    public mutating func request(_ target: AudioProfile) throws(StreamSessionError) {
        guard linkState == .connected else { throw .deviceNotConnected(identifier) }
        guard profile.availableProfiles.contains(target) else {
            throw .internalError("\(profile.name) has no \(target.rawValue) profile")
        }
        if target == activeProfile {
            pendingSwitch = nil
            return
        }
        pendingSwitch = (target, profileSwitchDelay)
    }

    /// Moves the device's time forward; completes a pending profile switch when it is due.
    public mutating func advance(by step: Duration) -> [RouteEvent] {
        guard let pending = pendingSwitch else { return [] }
        let remaining = pending.remaining - step
        guard remaining <= .zero else {
            pendingSwitch = (pending.profile, remaining)
            return []
        }
        let before = snapshot
        pendingSwitch = nil
        activeProfile = pending.profile
        return events(from: before)
    }

    /// The mic's next `count` samples at the voice rate, or `nil` when the mic is not live.
    public mutating func readMic(_ count: Int) -> [Float]? {
        guard micIsLive else { return nil }
        return mic.read(count)
    }

    /// Plays into the speaker; throws when there is no speaker to play into.
    public mutating func play(_ buffer: AudioBuffer) throws(StreamSessionError) {
        guard linkState == .connected, activeProfile.hasSpeaker else { throw .deviceNotConnected(identifier) }
        if recordsSpeaker { speakerOutput.append(buffer) }
    }

    /// Forgets what the speaker has played so far.
    public mutating func clearSpeakerOutput() { speakerOutput.removeAll() }

    // MARK: - Event derivation

    private struct Snapshot {
        var linkState: LinkState
        var profile: AudioProfile
        var endpoints: [AudioEndpoint]
        var transport: TransportState
    }

    private var snapshot: Snapshot {
        Snapshot(linkState: linkState, profile: activeProfile, endpoints: endpoints, transport: transport)
    }

    /// The events that lead from `before` to now, in the order BlueZ and PulseAudio emit them:
    /// the link drops before its endpoints go; it comes up before the profile and endpoints.
    private func events(from before: Snapshot) -> [RouteEvent] {
        var events: [RouteEvent] = []
        let now = snapshot
        let gone = before.endpoints.filter { old in !now.endpoints.contains { $0.name == old.name } }
        let added = now.endpoints.filter { new in !before.endpoints.contains { $0.name == new.name } }
        if before.transport != now.transport && now.transport == .idle {
            events.append(.transportChanged(identifier, .idle))
        }
        // BlueZ sees the link drop first; the sound server tears the card down after.
        let dropped = before.linkState != now.linkState && now.linkState == .disconnected
        if dropped { events.append(.linkChanged(identifier, .disconnected)) }
        events += gone.map { .endpointGone(name: $0.name, direction: $0.direction) }
        if before.linkState != now.linkState && now.linkState == .connected {
            events.append(.linkChanged(identifier, .connecting))
            events.append(.linkChanged(identifier, .connected))
        }
        if before.profile != now.profile { events.append(.profileChanged(identifier, now.profile)) }
        events += added.map { .endpointAppeared($0) }
        if before.transport != now.transport && now.transport != .idle {
            events.append(.transportChanged(identifier, now.transport))
        }
        return events
    }
}
