import ALSABackend
import Routing
import TestKit
import Testing

@Suite("BlueALSA's PCMs as route events (pure)", .oneAtATime)
struct BlueALSAModelTests {
    static let device = "/org/bluez/hci0/dev_C0_FF_EE_00_00_02"
    let id = DeviceIdentifier("C0:FF:EE:00:00:02")
    let a2dp = BlueALSAPCM(path: device + "/a2dpsrc/sink", address: "C0:FF:EE:00:00:02", transport: "A2DP-source", mode: "sink",
                           sampling: 48000, channels: 2, codec: "SBC")
    let scoSpeaker = BlueALSAPCM(path: device + "/hfpag/sink", address: "C0:FF:EE:00:00:02", transport: "HFP-AG", mode: "sink",
                                 sampling: 8000, channels: 1, codec: "CVSD")
    let scoMic = BlueALSAPCM(path: device + "/hfpag/source", address: "C0:FF:EE:00:00:02", transport: "HFP-AG", mode: "source",
                             sampling: 8000, channels: 1, codec: "CVSD")

    @Test("names: A2DP and SCO PCMs open as the bluealsa plugin's DEV/PROFILE names; addresses come from device paths")
    func names() {
        #expect(a2dp.alsaName == "bluealsa:DEV=C0:FF:EE:00:00:02,PROFILE=a2dp")
        #expect(scoMic.alsaName == "bluealsa:DEV=C0:FF:EE:00:00:02,PROFILE=sco")
        #expect(a2dp.endpoint.profile == .media && scoMic.endpoint.profile == .voice)
        #expect(scoMic.endpoint.direction == .source && scoSpeaker.endpoint.direction == .sink)
        #expect(BlueALSAPCM.address(inDevicePath: Self.device) == "C0:FF:EE:00:00:02")
        #expect(BlueALSAPCM.address(inDevicePath: "/org/bluez/hci0") == nil)
    }

    @Test("the first PCM brings the device; an SCO PCM puts it on voice; the same PCM twice is no news")
    func arrival() {
        var model = BlueALSAModel()
        let first = model.added(a2dp)
        guard case .deviceAppeared(let device) = first.first else { Issue.record("\(first)"); return }
        #expect(device.activeProfile == .media && device.linkState == .connected && device.availableProfiles == [.media])
        #expect(first.last == .endpointAppeared(a2dp.endpoint))
        #expect(model.added(scoSpeaker) == [.profileChanged(id, .voice), .endpointAppeared(scoSpeaker.endpoint)])
        #expect(model.added(scoMic) == [.endpointAppeared(scoMic.endpoint)])
        #expect(model.added(scoMic).isEmpty)
        #expect(model.devices.first?.availableProfiles == [.voice, .media])
    }

    @Test("SCO going leaves the device on media; the last PCM going takes the link and the device")
    func departure() {
        var model = BlueALSAModel()
        for pcm in [a2dp, scoSpeaker, scoMic] { _ = model.added(pcm) }
        #expect(model.removed(path: scoMic.path) == [.endpointGone(name: scoMic.alsaName, direction: .source)])
        #expect(model.removed(path: scoSpeaker.path) == [.endpointGone(name: scoSpeaker.alsaName, direction: .sink), .profileChanged(id, .media)])
        #expect(model.removed(path: a2dp.path) == [.endpointGone(name: a2dp.alsaName, direction: .sink), .linkChanged(id, .disconnected), .deviceGone(id)])
        #expect(model.removed(path: a2dp.path).isEmpty)
        #expect(model.devices.isEmpty)
    }
}
