import BluetoothIDs
import BluezModel
import Routing
import TestKit
import Testing

/// The sound server's devices with BlueZ's link, battery and paired devices laid over them.
@Suite("Sound server and BlueZ, merged", .oneAtATime)
struct BluezDeviceMergeTests {
    static let id = BluezObjectModelTests.id
    static let card = Device(
        identifier: id, name: "Ray-Ban Meta", deviceType: "headset", linkState: .connected, activeProfile: .media,
        availableProfiles: [.voice, .media, .off])

    func bluez(connected: Bool, battery: Int? = 80) -> BluezObjectModel {
        var model = BluezObjectModel()
        _ = model.handle(.managedObjects([
            BluezObjectModelTests.adapterPath: BluezObjectModelTests.adapter(),
            BluezObjectModelTests.devicePath: BluezObjectModelTests.device(connected: connected, battery: battery),
        ]))
        return model
    }

    /// BlueZ's model after `Connected` changed, with the model's events.
    func changed(_ model: inout BluezObjectModel, connected: Bool) -> (BluezObjectModel, [BluezEvent]) {
        let events = model.handle(.propertiesChanged(
            path: BluezObjectModelTests.devicePath, interface: BluezName.device, changed: ["Connected": .boolean(connected)], invalidated: []))
        return (model, events)
    }

    @Test("a card's device gets BlueZ's battery; a paired device without a card is listed, disconnected, with the profiles its UUIDs offer")
    func initialView() throws {
        let merge = BluezDeviceMerge(soundServer: [Self.card], bluez: bluez(connected: true))
        #expect(merge.devices.map(\.battery) == [80])
        #expect(merge.devices.first?.activeProfile == .media)
        let folded = BluezDeviceMerge(soundServer: [], bluez: bluez(connected: false))
        let device = try #require(folded.devices.first)
        #expect(device.identifier == Self.id && device.linkState == .disconnected && device.activeProfile == .off)
        #expect(device.availableProfiles == [.voice, .media, .off] && device.name == "Ray-Ban Meta")
    }

    @Test("a fold where BlueZ speaks first: the link goes at once, the card's going later changes nothing the engine sees")
    func foldBluezFirst() {
        var model = bluez(connected: true)
        var merge = BluezDeviceMerge(soundServer: [Self.card], bluez: model)
        #expect(merge.bluez(changed(&model, connected: false)) == [.linkChanged(Self.id, .disconnected)])
        #expect(merge.soundServer(.linkChanged(Self.id, .disconnected)).isEmpty)
        #expect(merge.soundServer(.endpointGone(name: "bluez_sink.x", direction: .sink)) == [.endpointGone(name: "bluez_sink.x", direction: .sink)])
        #expect(merge.soundServer(.deviceGone(Self.id)).isEmpty)
        #expect(merge.devices.map(\.linkState) == [.disconnected])
    }

    @Test("a fold where the sound server speaks first: the profile is held while BlueZ holds the link, which goes when BlueZ says so")
    func foldSoundServerFirst() {
        var model = bluez(connected: true)
        var merge = BluezDeviceMerge(soundServer: [Self.card], bluez: model)
        #expect(merge.soundServer(.linkChanged(Self.id, .disconnected)).isEmpty)
        #expect(merge.soundServer(.deviceGone(Self.id)).isEmpty)
        #expect(merge.devices.map(\.activeProfile) == [.media])
        #expect(merge.bluez(changed(&model, connected: false)) == [.linkChanged(Self.id, .disconnected)])
        #expect(merge.devices.map(\.activeProfile) == [.off])
    }

    @Test("unfolding: BlueZ's link comes first, then the card's profile is the device's own first profile")
    func unfold() {
        var model = bluez(connected: false)
        var merge = BluezDeviceMerge(soundServer: [], bluez: model)
        #expect(merge.bluez(changed(&model, connected: true)) == [.linkChanged(Self.id, .connected)])
        #expect(merge.soundServer(.deviceAppeared(Self.card)) == [.profileChanged(Self.id, .media)])
        #expect(merge.soundServer(.linkChanged(Self.id, .connected)).isEmpty)
        #expect(merge.soundServer(.profileChanged(Self.id, .voice)) == [.profileChanged(Self.id, .voice)])
    }

    @Test("battery changes come out as battery events")
    func battery() {
        var model = bluez(connected: true, battery: 80)
        var merge = BluezDeviceMerge(soundServer: [Self.card], bluez: model)
        let events = model.handle(.propertiesChanged(
            path: BluezObjectModelTests.devicePath, interface: BluezName.battery, changed: ["Percentage": .integer(41)], invalidated: []))
        #expect(merge.bluez(model, events: events) == [.batteryChanged(Self.id, 41)])
    }

    @Test("A2DP transport states reach the engine only for a device on the media profile")
    func transports() {
        var model = bluez(connected: true)
        var merge = BluezDeviceMerge(soundServer: [Self.card], bluez: model)
        let added = model.handle(.interfacesAdded(path: BluezObjectModelTests.transportPath, BluezObjectModelTests.transport))
        #expect(merge.bluez(model, events: added) == [.transportChanged(Self.id, .idle)])
        _ = merge.soundServer(.profileChanged(Self.id, .voice))
        let active = model.handle(.propertiesChanged(
            path: BluezObjectModelTests.transportPath, interface: BluezName.transport, changed: ["State": .string("active")], invalidated: []))
        #expect(merge.bluez(model, events: active).isEmpty)
    }

    @Test("BlueZ leaving: its own devices go, the sound server's link is used; coming back restores BlueZ's view")
    func bluezLeavesAndReturns() {
        var model = bluez(connected: false)
        let other = Device(identifier: "AA:AA:AA:AA:AA:AA", name: "speaker", deviceType: "speaker", linkState: .connected, activeProfile: .media)
        var merge = BluezDeviceMerge(soundServer: [other], bluez: model)
        #expect(merge.devices.count == 2)
        let lost = model.handle(.serviceLost)
        #expect(merge.bluez(model, events: lost) == [.bluetoothLost, .deviceGone(Self.id)])
        let back = model.handle(.managedObjects([
            BluezObjectModelTests.adapterPath: BluezObjectModelTests.adapter(),
            BluezObjectModelTests.devicePath: BluezObjectModelTests.device(connected: false),
        ]))
        let events = merge.bluez(model, events: back)
        #expect(events.first == .bluetoothBack)
        #expect(merge.devices.map(\.identifier) == ["AA:AA:AA:AA:AA:AA", Self.id])
    }

    @Test("events the merge does not own pass through unchanged")
    func passThrough() {
        var merge = BluezDeviceMerge(soundServer: [], bluez: BluezObjectModel())
        for event: RouteEvent in [.serverLost, .serverBack, .defaultEndpointChanged(name: "x", direction: .sink), .transportChanged(Self.id, .active)] {
            #expect(merge.soundServer(event) == [event])
        }
        #expect(merge.soundServer(.deviceAppeared(Self.card)) == [.deviceAppeared(Self.card)])
    }
}
