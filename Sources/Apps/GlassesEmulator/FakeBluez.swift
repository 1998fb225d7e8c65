import BluetoothIDs
import DBusKit
import Logging
import Synchronization
import Foundation

/// The `org.bluez` side: adapter (Adapter1, Media1), device (Device1) and, while the glasses
/// are connected and the sound server has registered its endpoints, one A2DP transport.
extension GlassesEmulator {
    func publish() async throws {
        try await bluez.connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'")
        try bluez.add("/org/bluez", [agentManagerInterface()])
        try bluez.add(Self.adapterPath, [adapterInterface(), mediaInterface(), gattManagerInterface(), advertisingManagerInterface()])
        try bluez.add(devicePath, [deviceInterface()])
        try ofono.add("/", [managerInterface()])
        try ofono.add(cardPath, [cardInterface()])
        watchNameOwners()
        let deferred = bluez.deferredCalls
        tasks.start { for await call in deferred { await call.answer() } }
        try await bluez.connection.requestName(BluezName.service)
        try await ofono.connection.requestName(OfonoName.service)
        logger.info("emulating \(glasses.name) (\(glasses.address)) on \(bluez.connection.address)")
    }

    /// `AgentManager1`, as BlueZ has it: agents register and unregister; nothing asks them
    /// anything here, because the emulated glasses are paired already.
    private func agentManagerInterface() -> DBusInterface {
        DBusInterface("org.bluez.AgentManager1", methods: [
            DBusMethod("RegisterAgent", in: "os") { _ in [] },
            DBusMethod("UnregisterAgent", in: "o") { _ in [] },
            DBusMethod("RequestDefaultAgent", in: "o") { _ in [] },
        ])
    }

    private func adapterInterface() -> DBusInterface {
        DBusInterface(BluezName.adapter, methods: [
            // The emulated glasses are always known: discovery has nothing to find.
            DBusMethod("StartDiscovery") { _ in [] },
            DBusMethod("StopDiscovery") { _ in [] },
        ], properties: [
            "Address": .string(Self.adapterAddress), "AddressType": .string("public"),
            "Name": .string("glasses-emulator"), "Alias": .string("glasses-emulator"),
            "Class": .uint32(0x6c010c), "Powered": .boolean(true), "Discoverable": .boolean(false),
            "Pairable": .boolean(true), "Discovering": .boolean(false),
            // The local roles: A2DP source (to glasses that are sinks) and hands-free gateway.
            "UUIDs": .strings([BluetoothUUID.a2dpSource, BluetoothUUID.a2dpSink, BluetoothUUID.handsfreeGateway,
                               BluetoothUUID.avrcpTarget, BluetoothUUID.avrcpController]),
        ], writable: ["Pairable": { value in
            guard case .boolean = value.unwrapped else { throw DBusError.invalidArgs("Pairable is a boolean") }
        }])
    }

    private func mediaInterface() -> DBusInterface {
        DBusInterface(BluezName.media, methods: [
            DBusMethod("RegisterApplication", in: "oa{sv}") { [weak self] call in
                guard let self, let sender = call.sender, let root = call.arguments[0].string else { return [] }
                logger.info("sound server registered its media application", metadata: ["owner": "\(sender)", "root": "\(root)"])
                state.withLock { $0.soundServer = .init(owner: sender, endpoint: nil) }
                tasks.start { await self.findEndpoint(owner: sender, root: root) }
                return []
            },
            DBusMethod("UnregisterApplication", in: "o") { [weak self] _ in
                self?.state.withLock { $0.soundServer = nil }
                return []
            },
            DBusMethod("RegisterEndpoint", in: "oa{sv}") { [weak self] call in
                guard let self, let sender = call.sender, let path = call.arguments[0].string,
                    let properties = call.arguments[1].propertyMap
                else { return [] }
                // BlueALSA writes the UUID in upper case; BlueZ compares without case.
                if properties["UUID"]?.string.flatMap(BluetoothUUID.normalized) == BluetoothUUID.a2dpSource,
                    properties["Codec"]?.integer == 0
                {
                    state.withLock { $0.soundServer = .init(owner: sender, endpoint: .init(owner: sender, path: path)) }
                    bluez.connection.afterDispatch { try? self.configureMediaIfPossible() }
                }
                return []
            },
            DBusMethod("UnregisterEndpoint", in: "o") { _ in [] },
        ])
    }

    private func deviceInterface() -> DBusInterface {
        DBusInterface(
            BluezName.device,
            methods: [
                // As BlueZ for a device that is paired already.
                DBusMethod("Pair") { _ in throw DBusError("org.bluez.Error.AlreadyExists", "Already Exists") },
                // As BlueZ: the link is up (or refused) by the time the caller has the reply.
                DBusMethod("Connect") { [weak self] _ in
                    guard let self else { return [] }
                    guard !isConnected else { throw DBusError("org.bluez.Error.AlreadyConnected", "Already Connected") }
                    try connect()
                    return []
                },
                DBusMethod("Disconnect") { [weak self] _ in
                    guard let self else { return [] }
                    guard isConnected else { throw DBusError("org.bluez.Error.NotConnected", "Not Connected") }
                    try disconnect()
                    return []
                },
                DBusMethod("ConnectProfile", in: "s") { [weak self] call in
                    guard let self else { return [] }
                    let role = try role(call.arguments[0].string ?? "")
                    guard isConnected else {
                        try connect()  // glasses bring up both profiles with the link
                        return []
                    }
                    try connectProfile(role)
                    return []
                },
                DBusMethod("DisconnectProfile", in: "s") { [weak self] call in
                    guard let self else { return [] }
                    let role = try role(call.arguments[0].string ?? "")
                    guard isConnected else { throw DBusError("org.bluez.Error.NotConnected", "Not Connected") }
                    try disconnectProfile(role)
                    return []
                },
            ],
            properties: [
                "Address": .string(glasses.address), "AddressType": .string("public"),
                "Name": .string(glasses.name), "Alias": .string(glasses.name),
                "Class": .uint32(glasses.deviceClass), "Icon": .string("audio-headset"),
                "Paired": .boolean(true), "Bonded": .boolean(true), "Trusted": .boolean(true), "Blocked": .boolean(false),
                "Connected": .boolean(false), "ServicesResolved": .boolean(false), "LegacyPairing": .boolean(false),
                "Adapter": .objectPath(Self.adapterPath), "UUIDs": .strings(glasses.uuids),
            ],
            writable: ["Trusted": { value in
                guard case .boolean = value.unwrapped else { throw DBusError.invalidArgs("Trusted is a boolean") }
            }])
    }

    /// The profile a UUID names, if the glasses offer it (BlueZ's answers otherwise).
    private func role(_ text: String) throws -> AudioRole {
        guard let uuid = BluetoothUUID.normalized(text) else { throw DBusError("org.bluez.Error.InvalidArguments", "Invalid arguments in method call") }
        switch uuid {
        case BluetoothUUID.handsfree: return .voice
        case BluetoothUUID.a2dpSink where glasses.offersMedia: return .media
        default: throw DBusError("org.bluez.Error.NotAvailable", "Operation currently not available")
        }
    }

    /// One profile back up on a connected link: the transport is configured again, or the
    /// card shown again.
    private func connectProfile(_ role: AudioRole) throws {
        let wasWithdrawn = state.withLock { $0.withdrawn.remove(role) != nil }
        guard wasWithdrawn else { throw DBusError("org.bluez.Error.AlreadyConnected", "Already Connected") }
        logger.info("profile connected", metadata: ["profile": "\(role)"])
        switch role {
        case .media: try configureMediaIfPossible()
        case .voice: try announceCardIfDue()
        }
    }

    /// One profile down while the link stays up.
    private func disconnectProfile(_ role: AudioRole) throws {
        let wasUp = state.withLock { $0.withdrawn.insert(role).inserted }
        guard wasUp else { throw DBusError("org.bluez.Error.NotConnected", "Not Connected") }
        logger.info("profile disconnected", metadata: ["profile": "\(role)"])
        switch role {
        case .media: try tearDownMedia()
        case .voice: try tearDownVoice()
        }
    }

    /// Lists the sound server's endpoints (its application's object manager) and keeps the
    /// A2DP source endpoint for SBC, the codec every A2DP device must support.
    private func findEndpoint(owner: String, root: String) async {
        do {
            let reply = try await bluez.connection.call(owner, root, DBusObjectServer.objectManagerInterface, "GetManagedObjects")
            let objects = reply.first?.propertyMap ?? [:]
            let candidates = objects.compactMap { path, interfaces -> String? in
                guard let endpoint = interfaces.propertyMap?[BluezName.endpoint]?.propertyMap,
                    endpoint["UUID"]?.string == BluetoothUUID.a2dpSource, endpoint["Codec"]?.integer == 0
                else { return nil }
                return path
            }.sorted()
            guard let path = candidates.first(where: { $0.hasSuffix("/sbc") }) ?? candidates.first else {
                logger.warning("the sound server registered no A2DP source endpoint for SBC", metadata: ["owner": "\(owner)"])
                mediaSettled()
                return
            }
            state.withLock { $0.soundServer = .init(owner: owner, endpoint: .init(owner: owner, path: path)) }
            try configureMediaIfPossible()
        } catch {
            logger.error("cannot list the sound server's endpoints: \(error)")
            mediaSettled()
        }
    }

    /// While connected and registered: create the transport and hand its configuration to
    /// the sound server's endpoint (BlueZ's `SetConfiguration`): the glasses' own choice, or
    /// the one the sound server asked for through the remote endpoint.
    /// - Parameter requested: SBC configuration bytes from the remote endpoint's
    ///   `SetConfiguration`; the call to the local endpoint is then sent before the caller's
    ///   reply, as BlueZ does, instead of awaited.
    func configureMediaIfPossible(requested: [UInt8]? = nil) throws {
        guard glasses.offersMedia else { return }
        let plan: (String, EmulatorState.Endpoint)? = state.withLock { state in
            guard state.connected, !state.withdrawn.contains(.media), state.transportPath == nil,
                let endpoint = state.soundServer?.endpoint
            else { return nil }
            state.transportCount += 1
            let path = "\(remoteEndpointPath)/fd\(state.transportCount - 1)"
            state.transportPath = path
            return (path, endpoint)
        }
        guard let (path, endpoint) = plan else { return }
        let configuration = requested ?? SBCConfiguration.forMedia(sampleRate: glasses.mediaSampleRate).bytes
        let properties: [String: DBusValue] = [
            "Device": .objectPath(devicePath), "UUID": .string(BluetoothUUID.a2dpSource), "Codec": .byte(0),
            "Configuration": .bytes(configuration), "State": .string("idle"), "Delay": .uint16(150), "Volume": .uint16(127),
        ]
        try bluez.add(path, [transportInterface(path: path, properties: properties)])
        logger.info("A2DP transport configured", metadata: ["transport": "\(path)", "configuration": "\(configuration)"])
        let call = try DBusMessage.methodCall(
            destination: endpoint.owner, path: endpoint.path, interface: BluezName.endpoint, member: "SetConfiguration",
            [.objectPath(path), .properties(properties)])
        if requested != nil {
            try bluez.connection.send(call)
            mediaSettled()
            return
        }
        tasks.start { [self] in
            do {
                let reply = try await bluez.connection.call(call)
                if let error = reply.error { logger.error("the sound server refused the A2DP configuration: \(error)") }
            } catch {
                logger.error("SetConfiguration failed: \(error)")
            }
            mediaSettled()
        }
    }

    /// BlueZ's object for the glasses' own A2DP stream endpoint (their SBC sink), under the device.
    var remoteEndpointPath: String { devicePath + "/sep1" }

    /// The remote stream endpoint as BlueZ shows it once the glasses are connected: what they
    /// can decode (SBC, at their media rate, every channel mode, block length, subband count and
    /// allocation, bitpool 2…53). A sound server that switches codecs (PipeWire) picks a
    /// configuration with `SetConfiguration(local endpoint, {Capabilities})`: BlueZ closes the
    /// current transport, opens one with that configuration and hands it to the local endpoint.
    func remoteEndpointInterface() -> DBusInterface {
        let frequency: UInt8 = glasses.mediaSampleRate == 48000 ? 0x10 : 0x20
        return DBusInterface(
            BluezName.endpoint,
            methods: [
                DBusMethod("SetConfiguration", in: "oa{sv}") { [weak self] call in
                    guard let self else { return [] }
                    guard let sender = call.sender, let local = call.arguments[0].string,
                        let requested = call.arguments[1].propertyMap?["Capabilities"]?.byteArray, requested.count == 4
                    else { throw DBusError("org.bluez.Error.InvalidArguments", "Invalid arguments in method call") }
                    logger.info("the sound server chose an A2DP configuration", metadata: ["endpoint": "\(local)", "configuration": "\(requested)"])
                    try tearDownMedia()
                    state.withLock { $0.soundServer = .init(owner: sender, endpoint: .init(owner: sender, path: local)) }
                    try configureMediaIfPossible(requested: requested)
                    return []
                },
            ],
            properties: [
                "UUID": .string(BluetoothUUID.a2dpSink), "Codec": .byte(0), "Capabilities": .bytes([frequency | 0x0F, 0xFF, 2, 53]),
                "Device": .objectPath(devicePath), "DelayReporting": .boolean(false),
            ])
    }

    /// The media side is done for this connection; the hands-free card may follow.
    private func mediaSettled() {
        state.withLock { $0.mediaSettled = true }
        try? announceCardIfDue()
    }

    private func transportInterface(path: String, properties: [String: DBusValue]) -> DBusInterface {
        DBusInterface(
            BluezName.transport,
            methods: [
                DBusMethod("Acquire", out: "hqq") { [weak self] _ in try self?.acquireMedia(path: path, onlyIfPending: false) ?? [] },
                DBusMethod("TryAcquire", out: "hqq") { [weak self] _ in try self?.acquireMedia(path: path, onlyIfPending: true) ?? [] },
                DBusMethod("Release") { [weak self] _ in
                    guard let self else { return [] }
                    let link = state.withLock { state in defer { state.a2dp = nil }; return state.a2dp }
                    link?.stop()
                    logger.info("A2DP transport released", metadata: ["transport": "\(path)"])
                    bluez.connection.afterDispatch { try? self.bluez.setProperties(path, BluezName.transport, ["State": .string("idle")]) }
                    return []
                },
            ],
            properties: properties,
            writable: ["Volume": { value in
                guard let volume = value.integer, volume <= 127 else { throw DBusError.invalidArgs("Volume is 0…127") }
            }])
    }

    /// Opens the media link: a socket pair whose far end goes to the sound server.
    private func acquireMedia(path: String, onlyIfPending: Bool) throws -> [DBusValue] {
        let current = bluez.property(path, BluezName.transport, "State")?.string
        if onlyIfPending && current == "idle" { throw DBusError("org.bluez.Error.NotAvailable", "Not available") }
        let link = try A2DPLink(audio: audio) { [weak self] in
            self?.logger.info("A2DP link closed by the sound server", metadata: ["transport": "\(path)"])
        }
        let refused = state.withLock { state -> Bool in
            guard state.a2dp == nil, state.transportPath == path else { return true }
            state.a2dp = link
            state.statistics.mediaAcquisitions += 1
            return false
        }
        guard !refused else {
            link.handedOver()
            link.stop()
            throw DBusError("org.bluez.Error.NotAuthorized", "the transport is already acquired")
        }
        link.start(name: "a2dp")
        logger.info("A2DP transport acquired", metadata: ["transport": "\(path)"])
        bluez.connection.afterDispatch { [self] in
            link.handedOver()
            try? bluez.setProperties(path, BluezName.transport, ["State": .string("active")])
        }
        return [.unixFD(link.theirs), .uint16(895), .uint16(895)]
    }

    /// When the sound server leaves the bus, BlueZ drops its endpoints and their transports,
    /// and oFono its agent.
    private func watchNameOwners() {
        let signals = bluez.connection.signals()
        tasks.start { [weak self] in
            for await signal in signals where signal.member == "NameOwnerChanged" {
                guard let self, signal.arguments.count == 3, signal.arguments[2].string == "",
                    let gone = signal.arguments[0].string
                else { continue }
                soundServerLeft(gone)
                peripheralOwnerLeft(gone)
            }
        }
    }

    private func soundServerLeft(_ name: String) {
        let (a2dp, sco, transport) = state.withLock { state -> (A2DPLink?, SCOLink?, String?) in
            var result: (A2DPLink?, SCOLink?, String?) = (nil, nil, nil)
            if state.soundServer?.owner == name {
                result.0 = state.a2dp
                result.2 = state.transportPath
                state.soundServer = nil
                state.a2dp = nil
                state.transportPath = nil
            }
            if state.agent?.owner == name {
                result.1 = state.sco
                state.agent = nil
                state.sco = nil
                state.cardShown = false  // the next server's agent must be shown the card
            }
            return result
        }
        guard a2dp != nil || sco != nil || transport != nil else { return }
        logger.info("the sound server left the bus", metadata: ["owner": "\(name)"])
        a2dp?.stop()
        sco?.stop()
        if let transport { try? bluez.remove(transport) }
    }
}
