import BluetoothIDs
import BluezModel
import Routing
import TestKit
import Testing

/// The object model fed with what a real org.bluez sends, as plain values.
@Suite("BlueZ object model", .oneAtATime)
struct BluezObjectModelTests {
    static let adapterPath = "/org/bluez/hci0"
    static let address = "C0:FF:EE:00:00:02"
    static let devicePath = "/org/bluez/hci0/dev_C0_FF_EE_00_00_02"
    static let transportPath = devicePath + "/sep1/fd0"
    static let id = DeviceIdentifier(address)

    static func adapter(powered: Bool = true) -> BluezInterfaces {
        [BluezName.adapter: [
            "Address": .string("00:1A:7D:DA:71:13"), "Alias": .string("host"), "Powered": .boolean(powered),
            "Discovering": .boolean(false), "UUIDs": .strings([BluetoothUUID.a2dpSource]),
        ]]
    }

    static func device(connected: Bool, battery: Int? = nil) -> BluezInterfaces {
        var interfaces: BluezInterfaces = [
            BluezName.device: [
                "Address": .string(address), "Alias": .string("Ray-Ban Meta"), "Connected": .boolean(connected),
                "ServicesResolved": .boolean(connected), "Paired": .boolean(true), "Trusted": .boolean(true),
                "Adapter": .objectPath(adapterPath), "Class": .integer(0x240404), "Icon": .string("audio-headset"),
                "UUIDs": .strings([BluetoothUUID.a2dpSink, BluetoothUUID.handsfree, BluetoothUUID.avrcpTarget]),
            ],
            "org.freedesktop.DBus.Introspectable": [:],
        ]
        if let battery { interfaces[BluezName.battery] = ["Percentage": .integer(Int64(battery))] }
        return interfaces
    }

    static let transport: BluezInterfaces = [BluezName.transport: [
        "Device": .objectPath(devicePath), "UUID": .string(BluetoothUUID.a2dpSource), "Codec": .integer(0),
        "State": .string("idle"), "Volume": .integer(127),
    ]]

    func loaded(connected: Bool = true, battery: Int? = 80) -> BluezObjectModel {
        var model = BluezObjectModel()
        _ = model.handle(.managedObjects(["/": [:], Self.adapterPath: Self.adapter(), Self.devicePath: Self.device(connected: connected, battery: battery)]))
        return model
    }

    @Test("GetManagedObjects gives the adapter, the paired glasses with their roles and battery, and says the service is up")
    func loadsManagedObjects() throws {
        var model = BluezObjectModel()
        let events = model.handle(.managedObjects([
            "/": [:], Self.adapterPath: Self.adapter(), Self.devicePath: Self.device(connected: true, battery: 80),
            "/org/bluez": ["org.bluez.AgentManager1": [:]],
        ]))
        #expect(model.isServiceUp)
        let adapter = try #require(model.adapters.first)
        #expect(adapter == BluezAdapter(path: Self.adapterPath, address: "00:1A:7D:DA:71:13", alias: "host", powered: true, discovering: false))
        let device = try #require(model.device(Self.id))
        #expect(device.alias == "Ray-Ban Meta")
        #expect(device.linkState == .connected)
        #expect(device.servicesResolved && device.paired && device.trusted)
        #expect(device.roles == [.handsfree, .a2dpSink])
        #expect(device.offeredProfiles == [.voice, .media, .off])
        #expect(device.battery == 80)
        #expect(device.deviceClass == 0x240404)
        #expect(events == [
            .serviceAvailability(true), .adapterAppeared(adapter), .deviceAppeared(device), .batteryChanged(Self.id, 80),
        ])
    }

    @Test("Connected turning false and true is a link change; the route event is linkChanged")
    func linkChanges() {
        var model = loaded(connected: true)
        let down = model.handle(.propertiesChanged(
            path: Self.devicePath, interface: BluezName.device,
            changed: ["Connected": .boolean(false)], invalidated: []))
        #expect(down == [.linkChanged(Self.id, .disconnected)])
        #expect(down.compactMap(\.routeEvent) == [.linkChanged(Self.id, .disconnected)])
        let resolvedOff = model.handle(.propertiesChanged(
            path: Self.devicePath, interface: BluezName.device, changed: ["ServicesResolved": .boolean(false)], invalidated: []))
        #expect(resolvedOff.count == 1)
        #expect(resolvedOff.compactMap(\.routeEvent).isEmpty)
        let up = model.handle(.propertiesChanged(
            path: Self.devicePath, interface: BluezName.device, changed: ["Connected": .boolean(true)], invalidated: []))
        #expect(up.compactMap(\.routeEvent) == [.linkChanged(Self.id, .connected)])
    }

    @Test("a property that did not change, or another interface's change, reports nothing")
    func nothingChanged() {
        var model = loaded()
        #expect(model.handle(.propertiesChanged(
            path: Self.devicePath, interface: BluezName.device, changed: ["Connected": .boolean(true)], invalidated: [])).isEmpty)
        #expect(model.handle(.propertiesChanged(
            path: Self.devicePath, interface: "org.bluez.MediaControl1", changed: ["Connected": .boolean(false)], invalidated: [])).isEmpty)
        #expect(model.handle(.propertiesChanged(
            path: "/org/bluez/hci0/dev_00_00_00_00_00_01", interface: BluezName.device, changed: ["Connected": .boolean(true)], invalidated: [])).isEmpty)
    }

    @Test("Battery1 added, changed and removed is a battery change each time")
    func battery() {
        var model = loaded(battery: nil)
        #expect(model.handle(.interfacesAdded(path: Self.devicePath, [BluezName.battery: ["Percentage": .integer(64)]]))
            == [.batteryChanged(Self.id, 64)])
        #expect(model.handle(.propertiesChanged(
            path: Self.devicePath, interface: BluezName.battery, changed: ["Percentage": .integer(63)], invalidated: []))
            .compactMap(\.routeEvent) == [.batteryChanged(Self.id, 63)])
        #expect(model.device(Self.id)?.battery == 63)
        #expect(model.handle(.interfacesRemoved(path: Self.devicePath, [BluezName.battery])) == [.batteryChanged(Self.id, nil)])
        #expect(model.device(Self.id) != nil)
    }

    @Test("a transport appears idle, goes pending then active, changes volume, and goes away", arguments: [
        ("pending", TransportState.pending), ("active", .active), ("broadcasting", .active), ("idle", .idle), ("unheard-of", .idle),
    ])
    func transportStates(name: String, state: TransportState) throws {
        var model = loaded()
        let added = model.handle(.interfacesAdded(path: Self.transportPath, Self.transport))
        let transport = try #require(model.transports.first)
        #expect(transport.device == Self.devicePath && transport.codec == 0 && transport.volume == 127 && transport.profile == .media)
        #expect(added == [.transportChanged(Self.id, transport)])
        let changed = model.handle(.propertiesChanged(
            path: Self.transportPath, interface: BluezName.transport, changed: ["State": .string(name)], invalidated: []))
        #expect(changed.compactMap(\.routeEvent) == (state == .idle ? [] : [.transportChanged(Self.id, state)]))
        #expect(model.transports(ofDevice: Self.devicePath).first?.state == state)
    }

    @Test("a transport's volume change is reported; its removal is transportGone")
    func transportVolumeAndRemoval() {
        var model = loaded()
        _ = model.handle(.interfacesAdded(path: Self.transportPath, Self.transport))
        let volume = model.handle(.propertiesChanged(
            path: Self.transportPath, interface: BluezName.transport, changed: ["Volume": .integer(90)], invalidated: []))
        #expect(model.transports.first?.volume == 90)
        #expect(volume.count == 1)
        let gone = model.handle(.interfacesRemoved(path: Self.transportPath, [BluezName.transport]))
        guard case .transportGone(Self.id, let transport)? = gone.first else {
            Issue.record("expected transportGone, got \(gone)")
            return
        }
        #expect(transport.path == Self.transportPath)
        #expect(model.transports.isEmpty)
    }

    @Test("adapter Powered and Discovering changes are adapter changes")
    func adapterChanges() {
        var model = loaded()
        let events = model.handle(.propertiesChanged(
            path: Self.adapterPath, interface: BluezName.adapter, changed: ["Powered": .boolean(false), "Discovering": .boolean(true)], invalidated: []))
        #expect(events == [.adapterChanged(BluezAdapter(path: Self.adapterPath, address: "00:1A:7D:DA:71:13", alias: "host", powered: false, discovering: true))])
    }

    @Test("a device removed (unpaired) is deviceGone; its transports go first")
    func deviceRemoved() {
        var model = loaded()
        _ = model.handle(.interfacesAdded(path: Self.transportPath, Self.transport))
        _ = model.handle(.interfacesRemoved(path: Self.transportPath, [BluezName.transport]))
        let events = model.handle(.interfacesRemoved(path: Self.devicePath, [BluezName.device, BluezName.battery, "org.freedesktop.DBus.Introspectable"]))
        #expect(events.count == 1)
        if case .deviceGone(let device)? = events.first { #expect(device.identifier == Self.id) } else { Issue.record("\(events)") }
        #expect(model.devices.isEmpty)
    }

    @Test("org.bluez leaving empties the model with one event; coming back reloads and reports what is there")
    func serviceLostAndBack() throws {
        var model = loaded(connected: true)
        #expect(model.handle(.serviceLost) == [.serviceAvailability(false)])
        #expect(model.devices.isEmpty && model.adapters.isEmpty && !model.isServiceUp)
        #expect([BluezEvent.serviceAvailability(false)].compactMap(\.routeEvent) == [.bluetoothLost])
        let back = model.handle(.managedObjects([Self.adapterPath: Self.adapter(), Self.devicePath: Self.device(connected: false)]))
        #expect(back.first == .serviceAvailability(true))
        #expect(back.first?.routeEvent == .bluetoothBack)
        #expect(model.device(Self.id)?.linkState == .disconnected)
    }

    @Test("reloading GetManagedObjects while up reports only the differences")
    func reloadDiffs() throws {
        var model = loaded(connected: true, battery: 80)
        let events = model.handle(.managedObjects([Self.adapterPath: Self.adapter(), Self.devicePath: Self.device(connected: false, battery: 75)]))
        let device = try #require(model.device(Self.id))
        #expect(!device.servicesResolved)
        // ServicesResolved went down with the link: a device change, then the link and battery.
        #expect(events == [.deviceChanged(device), .linkChanged(Self.id, .disconnected), .batteryChanged(Self.id, 75)])
    }

    @Test("a device with missing properties falls back on its object path; UUIDs in any case or short form count")
    func sparseDevice() throws {
        var model = BluezObjectModel()
        _ = model.handle(.managedObjects(["/org/bluez/hci1/dev_AA_BB_CC_DD_EE_FF": [BluezName.device: [
            "UUIDs": .strings(["0000111E-0000-1000-8000-00805F9B34FB", "1108", "not-a-uuid"]),
        ]]]))
        let device = try #require(model.devices.first)
        #expect(device.address == "AA:BB:CC:DD:EE:FF")
        #expect(device.alias == "AA:BB:CC:DD:EE:FF")
        #expect(device.adapter == "/org/bluez/hci1")
        #expect(device.roles == [.handsfree, .headset])
        #expect(device.offeredProfiles == [.voice, .off])
        #expect(device.linkState == .disconnected)
        #expect(model.device(DeviceIdentifier("aa:bb:cc:dd:ee:ff")) == device)
    }

    @Test("a device whose services are not read yet counts as audio by its class or icon, offering both profiles")
    func audioBeforeServices() throws {
        var model = BluezObjectModel()
        _ = model.handle(.managedObjects([
            "/org/bluez/hci0/dev_AA_AA_AA_AA_AA_01": [BluezName.device: ["Class": .integer(0x240404)]],
            "/org/bluez/hci0/dev_AA_AA_AA_AA_AA_02": [BluezName.device: ["Icon": .string("audio-headphones")]],
            "/org/bluez/hci0/dev_AA_AA_AA_AA_AA_03": [BluezName.device: ["Class": .integer(0x5a020c), "Icon": .string("phone")]],
            "/org/bluez/hci0/dev_AA_AA_AA_AA_AA_04": [BluezName.device: ["Class": .integer(0x240404), "UUIDs": .strings(["00001800-0000-1000-8000-00805f9b34fb"])]],
        ]))
        #expect(model.devices.map(\.isAudio) == [true, true, false, false])
        #expect(model.devices.first?.offeredProfiles == [.voice, .media, .off])
    }
}
