import Routing
import TestKit
import Testing

@Suite("Device selectors (seed 000 §4.1)", .oneAtATime)
struct DeviceSelectorTests {
    let off = Fixture.device(Fixture.glasses, link: .disconnected)
    let on = Fixture.device(Fixture.other, name: "Oakley", link: .connected)

    @Test func autoPicksTheFirstConnectedDevice() {
        #expect(DeviceSelector.auto.activeDevice(in: [off, on]) == Fixture.other)
    }

    @Test func autoFallsBackToTheFirstDevice() {
        let alsoOff = Fixture.device(Fixture.other, link: .disconnected)
        #expect(DeviceSelector.auto.activeDevice(in: [off, alsoOff]) == Fixture.glasses)
    }

    @Test func autoPicksNothingFromNoDevices() {
        #expect(DeviceSelector.auto.activeDevice(in: []) == nil)
    }

    @Test func autoSkipsUnsupportedDevices() {
        let unsupported = Fixture.device(Fixture.other, compatibility: .unsupported)
        #expect(DeviceSelector.auto.activeDevice(in: [unsupported, off]) == Fixture.glasses)
        #expect(DeviceSelector.auto.activeDevice(in: [unsupported]) == nil)
    }

    @Test("specific always targets its device, listed or not", arguments: [[], [Fixture.device()]])
    func specific(devices: [Device]) {
        #expect(DeviceSelector.specific("11:22").activeDevice(in: devices) == "11:22")
    }

    @Test func autoSelectorReportsOnlyChanges() {
        var selector = AutoDeviceSelector()
        #expect(selector.update(from: []) == nil)
        #expect(selector.update(from: [off]) == .some(Fixture.glasses))
        #expect(selector.update(from: [off]) == nil)
        #expect(selector.update(from: [off, on]) == .some(Fixture.other))
        #expect(selector.update(from: []) == .some(nil))
        #expect(selector.activeDevice == nil)
    }

    @Test("the engine re-selects whenever the device list changes")
    func engineReselects() {
        var harness = Harness()
        #expect(harness.event(.deviceAppeared(off)).contains(.activeDeviceChanged(Fixture.glasses)))
        #expect(harness.connect(on).contains(.activeDeviceChanged(Fixture.other)))
        #expect(harness.event(.linkChanged(Fixture.other, .disconnected)).contains(.activeDeviceChanged(Fixture.glasses)))
        #expect(harness.event(.deviceGone(Fixture.glasses)).contains(.activeDeviceChanged(Fixture.other)))
        #expect(harness.engine.activeDevice == Fixture.other)
    }

    @Test("an auto session waiting with no device binds to the first that connects")
    func autoSessionBindsWhenADeviceConnects() {
        var harness = Harness()
        harness.send(.startSession(1, Fixture.playback))
        #expect(harness.states(1) == [.waitingForDevice])
        harness.event(.deviceAppeared(off))
        #expect(harness.states(1) == [.waitingForDevice])
        harness.connect(on)
        #expect(harness.states(1) == [.waitingForDevice, .starting])
        #expect(harness.engine.session(1)?.device == Fixture.other)
    }
}
