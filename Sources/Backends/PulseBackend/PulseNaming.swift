public import Routing

/// How PulseAudio and PipeWire's pulse server name Bluetooth things, mapped to our vocabulary.
public enum PulseNaming {
    /// `voice`, `media` or `off` for a card profile name of either server:
    /// PulseAudio `a2dp_sink`, `headset_head_unit`, `handsfree_head_unit`, `off`;
    /// PipeWire `a2dp-sink`, `a2dp-sink-aac`, `headset-head-unit`, `headset-head-unit-msbc`…
    public static func profile(forCardProfile name: String) -> AudioProfile? {
        let normal = name.lowercased().replacingOccurrences(of: "-", with: "_")
        if normal == "off" { return .off }
        if normal.hasPrefix("a2dp_sink") || normal.hasPrefix("a2dp") { return .media }
        if normal.hasPrefix("headset_head_unit") || normal.hasPrefix("handsfree_head_unit")
            || normal.hasPrefix("headset_audio_gateway") || normal.hasPrefix("handsfree") || normal.hasPrefix("hsp")
            || normal.hasPrefix("hfp") {
            return .voice
        }
        return nil
    }

    /// The card profile to ask for, among those a card offers, for one of our profiles;
    /// prefers wideband/higher-quality variants (`msbc`, `aac`) when the card lists them.
    public static func cardProfile(for profile: AudioProfile, among available: [String]) -> String? {
        let matching = available.filter { Self.profile(forCardProfile: $0) == profile }
        let preferred = ["handsfree_head_unit", "headset-head-unit-msbc", "headset_head_unit", "headset-head-unit",
                         "a2dp-sink-aac", "a2dp_sink", "a2dp-sink", "off"]
        for name in preferred where matching.contains(name) { return name }
        return matching.first
    }

    /// A default sink or source name as the server reports it, or `nil` when there is none.
    /// PulseAudio reports no name; pipewire-pulse reports the placeholders `@DEFAULT_SINK@` and
    /// `@DEFAULT_SOURCE@` while the session manager (WirePlumber) has chosen no default, e.g.
    /// while it starts or after it died. Those name no endpoint.
    public static func defaultEndpointName(_ reported: String?) -> String? {
        guard let reported, !reported.isEmpty, !(reported.hasPrefix("@") && reported.hasSuffix("@")) else { return nil }
        return reported
    }

    /// Whether a card, sink or source with these properties is a Bluetooth device.
    public static func isBluetooth(properties: [String: String]) -> Bool {
        properties["device.bus"] == "bluetooth" || properties["device.api"] == "bluez"
            || properties["device.api"] == "bluez5" || properties["api.bluez5.address"] != nil
    }

    /// The Bluetooth address in a card's or endpoint's properties or name (`bluez_card.AA_BB_…`).
    public static func address(properties: [String: String], name: String) -> String? {
        if let address = properties["api.bluez5.address"] ?? properties["bluez.path"].flatMap(addressInPath) {
            return address
        }
        if let string = properties["device.string"], string.count == 17, string.filter({ $0 == ":" }).count == 5 {
            return string.uppercased()
        }
        let parts = name.split(separator: ".")
        if parts.count >= 2, parts[0].hasPrefix("bluez_") {
            let candidate = parts[1].replacingOccurrences(of: "_", with: ":")
            if candidate.count == 17 { return candidate.uppercased() }
        }
        return nil
    }

    private static func addressInPath(_ path: String) -> String? {
        guard let range = path.range(of: "dev_") else { return nil }
        let tail = path[range.upperBound...].prefix(17)
        return tail.count == 17 ? tail.replacingOccurrences(of: "_", with: ":") : nil
    }
}

import Foundation
