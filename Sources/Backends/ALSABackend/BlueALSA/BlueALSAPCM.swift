public import Routing
import Foundation

/// One `org.bluealsa.PCM1` object: a Bluetooth audio stream BlueALSA offers to ALSA
/// applications through its `bluealsa` plugin.
public struct BlueALSAPCM: Sendable, Hashable {
    /// The object path, `/org/bluealsa/hci0/dev_AA_BB_CC_DD_EE_FF/a2dpsrc/sink`.
    public var path: String
    /// The glasses' Bluetooth address.
    public var address: String
    /// `A2DP-source`, `HFP-AG`, `HSP-AG`…
    public var transport: String
    /// `sink` (the application writes: playback) or `source` (the application reads: capture).
    public var mode: String
    public var sampling: Int
    public var channels: Int
    public var codec: String

    /// The device's `media` (A2DP) or `voice` (HFP/HSP, SCO) profile.
    public var profile: AudioProfile { transport.hasPrefix("A2DP") ? .media : .voice }
    public var direction: EndpointDirection { mode == "source" ? .source : .sink }

    /// What the ALSA `bluealsa` plugin opens: `bluealsa:DEV=AA:BB:CC:DD:EE:FF,PROFILE=a2dp|sco`.
    public var alsaName: String { "bluealsa:DEV=\(address),PROFILE=\(profile == .media ? "a2dp" : "sco")" }

    public var endpoint: AudioEndpoint {
        let what = profile == .media ? "A2DP \(codec) speaker" : direction == .source ? "SCO \(codec) mic" : "SCO \(codec) speaker"
        return AudioEndpoint(
            name: alsaName, direction: direction, description: "\(address) \(what) (BlueALSA)", device: DeviceIdentifier(address),
            profile: profile, sampleRate: sampling, channels: channels)
    }

    public init(path: String, address: String, transport: String, mode: String, sampling: Int, channels: Int, codec: String) {
        self.path = path
        self.address = address
        self.transport = transport
        self.mode = mode
        self.sampling = sampling
        self.channels = channels
        self.codec = codec
    }

    /// The address in a BlueZ device path (`…/dev_AA_BB_CC_DD_EE_FF`), or nil.
    public static func address(inDevicePath path: String) -> String? {
        guard let last = path.split(separator: "/").last, last.hasPrefix("dev_") else { return nil }
        let address = last.dropFirst(4).replacingOccurrences(of: "_", with: ":")
        return address.count == 17 ? address : nil
    }
}
