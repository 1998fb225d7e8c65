public import Routing

/// What we know about one model of glasses or headset: how to recognise it, which profiles and
/// codecs it prefers, its mic gain and quirks, and how the simulator should behave as it.
public struct DeviceProfile: Sendable, Hashable, Codable, Identifiable {
    /// Stable identifier, also the file name: `ray-ban-meta-gen-2`.
    public var id: String
    /// Display name: `Ray-Ban Meta (Gen 2)`.
    public var name: String
    public var vendor: String
    public var match: Match
    /// The two-way (HFP) side; every supported device has one.
    public var voice: Voice
    /// The A2DP side; `nil` for a headset without A2DP.
    public var media: Media?
    /// Gain to apply to the mic, in dB.
    public var micGainDB: Double
    public var quirks: Quirks
    public var simulation: Simulation

    /// How to recognise the device among Bluetooth devices.
    public struct Match: Sendable, Hashable, Codable {
        /// Case-insensitive substrings of the Bluetooth name.
        public var names: [String]
        /// Address prefixes (OUI, `AA:BB:CC`), upper case.
        public var addressPrefixes: [String]
    }

    public struct Voice: Sendable, Hashable, Codable {
        /// HFP codecs in preference order: `msbc` (16 kHz), `cvsd` (8 kHz), `lc3-swb` (32 kHz).
        public var codecs: [String]
        public var sampleRate: Int
    }

    public struct Media: Sendable, Hashable, Codable {
        /// A2DP codecs in preference order: `aac`, `sbc`, `ldac`…
        public var codecs: [String]
        public var sampleRate: Int
        public var channels: Int
    }

    public struct Quirks: Sendable, Hashable, Codable {
        /// Extra time the voice link needs after it opens before the mic carries audio (`voice_settle_ms`).
        public var voiceSettle: Duration
        /// Free-text notes shown by `glasses-audio route`.
        public var notes: [String]
    }

    public struct Simulation: Sendable, Hashable, Codable {
        /// The address the simulated device reports.
        public var address: String
        /// How long a profile switch takes (`profile_switch_ms`).
        public var profileSwitch: Duration
        /// The profile the device comes up on when it connects.
        public var defaultProfile: AudioProfile
    }

    /// The profiles this model offers.
    public var availableProfiles: [AudioProfile] { media == nil ? [.voice, .off] : [.voice, .media, .off] }

    /// The length of the longest of this model's names found in `name` (0 when none is).
    public func specificity(name: String) -> Int {
        let lowerName = name.lowercased()
        return match.names.filter { lowerName.contains($0.lowercased()) }.map(\.count).max() ?? 0
    }

    /// Whether a Bluetooth device with this name and address is this model.
    public func matches(name: String, address: String) -> Bool {
        let upperAddress = address.uppercased()
        return specificity(name: name) > 0 || match.addressPrefixes.contains { upperAddress.hasPrefix($0) }
    }
}
