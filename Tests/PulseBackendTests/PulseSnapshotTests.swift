import PulseBackend
import Routing
import TestKit
import Testing

@Suite("PulseAudio naming and snapshot diffs (pure)", .oneAtATime)
struct PulseSnapshotTests {
    @Test("both servers' Bluetooth profile names map to our vocabulary", arguments: [
        ("a2dp_sink", AudioProfile.media), ("a2dp-sink", .media), ("a2dp-sink-aac", .media), ("a2dp-sink-sbc_xq", .media),
        ("headset_head_unit", .voice), ("handsfree_head_unit", .voice), ("headset-head-unit", .voice),
        ("headset-head-unit-msbc", .voice), ("headset-head-unit-cvsd", .voice), ("off", .off),
    ])
    func profileNames(name: String, expected: AudioProfile) {
        #expect(PulseNaming.profile(forCardProfile: name) == expected)
    }

    @Test("the best card profile is chosen for each of ours")
    func cardProfileChoice() {
        let pipewire = ["off", "a2dp-sink-sbc", "a2dp-sink-aac", "headset-head-unit-cvsd", "headset-head-unit-msbc"]
        #expect(PulseNaming.cardProfile(for: .media, among: pipewire) == "a2dp-sink-aac")
        #expect(PulseNaming.cardProfile(for: .voice, among: pipewire) == "headset-head-unit-msbc")
        let pulse = ["a2dp_sink", "headset_head_unit", "handsfree_head_unit", "off"]
        #expect(PulseNaming.cardProfile(for: .voice, among: pulse) == "handsfree_head_unit")
        #expect(PulseNaming.cardProfile(for: .media, among: ["off"]) == nil)
    }

    @Test("Bluetooth cards are recognised by their properties, under either server")
    func bluetoothRecognition() {
        #expect(PulseNaming.isBluetooth(properties: ["device.bus": "bluetooth"]))
        #expect(PulseNaming.isBluetooth(properties: ["device.api": "bluez5", "api.bluez5.address": "AA:BB:CC:DD:EE:FF"]))
        #expect(!PulseNaming.isBluetooth(properties: ["device.bus": "usb"]))
        #expect(PulseNaming.address(properties: [:], name: "bluez_card.AA_BB_CC_DD_EE_FF") == "AA:BB:CC:DD:EE:FF")
        #expect(PulseNaming.address(properties: ["api.bluez5.address": "11:22:33:44:55:66"], name: "x") == "11:22:33:44:55:66")
        #expect(PulseNaming.address(properties: ["device.string": "aa:bb:cc:dd:ee:ff"], name: "x") == "AA:BB:CC:DD:EE:FF")
    }

    @Test("pipewire-pulse's placeholder default names mean no default")
    func defaultNames() {
        #expect(PulseNaming.defaultEndpointName("@DEFAULT_SINK@") == nil)
        #expect(PulseNaming.defaultEndpointName("@DEFAULT_SOURCE@") == nil)
        #expect(PulseNaming.defaultEndpointName("") == nil)
        #expect(PulseNaming.defaultEndpointName(nil) == nil)
        #expect(PulseNaming.defaultEndpointName("alsa_output.pci-0000_00_1f.3.analog-stereo") == "alsa_output.pci-0000_00_1f.3.analog-stereo")
        #expect(PulseNaming.defaultEndpointName("auto_null.monitor") == "auto_null.monitor")
    }

    @Test("a snapshot diff reports gone endpoints first, then profile changes, then new endpoints")
    func diffOrder() {
        let id = DeviceIdentifier("AA:BB:CC:DD:EE:FF")
        let a2dp = AudioEndpoint(name: "bluez_sink.AA_BB_CC_DD_EE_FF.a2dp_sink", direction: .sink, description: "", device: id, sampleRate: 48000, channels: 2)
        let mic = AudioEndpoint(name: "bluez_source.AA_BB_CC_DD_EE_FF.handsfree_head_unit", direction: .source, description: "", device: id, sampleRate: 16000, channels: 1)
        let onMedia = Device(identifier: id, name: "Glasses", deviceType: "headset", linkState: .connected, activeProfile: .media)
        var onVoice = onMedia
        onVoice.activeProfile = .voice
        let before = PulseSnapshot(devices: [onMedia], endpoints: [a2dp], defaultSink: a2dp.name, defaultSource: nil)
        let after = PulseSnapshot(devices: [onVoice], endpoints: [mic], defaultSink: a2dp.name, defaultSource: mic.name)
        #expect(after.events(since: before) == [
            .endpointGone(name: a2dp.name, direction: .sink), .profileChanged(id, .voice), .endpointAppeared(mic),
            .defaultEndpointChanged(name: mic.name, direction: .source),
        ])
        #expect(PulseSnapshot.empty.events(since: after).contains(.deviceGone(id)))
        #expect(after.events(since: after).isEmpty)
    }
}
