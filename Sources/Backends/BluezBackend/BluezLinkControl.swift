import AudioCore
import BluetoothIDs
public import BluezModel
public import Routing

/// What `connect`/`disconnect` were asked: the whole link, or one profile on it.
public struct BluezLinkRequest: Sendable, Hashable {
    public var connect: Bool
    /// One profile (voice: HFP, or HSP where the device has no HFP; media: A2DP sink), or
    /// the whole link when nil.
    public var profile: AudioProfile?

    public init(connect: Bool, profile: AudioProfile? = nil) {
        self.connect = connect
        self.profile = profile
    }
}

/// What a link request did: the device as BlueZ shows it afterwards, and whether anything
/// changed (false: it already was so).
public struct BluezLinkResult: Sendable, Hashable, Encodable {
    public var device: BluezDevice
    public var changed: Bool
}

extension BluezClient {
    /// The device `text` names: its address (any case, `:` or `_`), or its alias (exactly,
    /// ignoring case, or the one alias containing it).
    public func device(named text: String) throws -> BluezDevice {
        let model = self.model
        guard model.isServiceUp else { throw BluezError("BlueZ (org.bluez) is not on the system bus; is bluetoothd running?") }
        if let address = BluetoothAddress.normalized(text), let device = model.device(DeviceIdentifier(address)) { return device }
        let wanted = text.lowercased()
        if let exact = model.devices.first(where: { $0.alias.lowercased() == wanted }) { return exact }
        let partial = model.devices.filter { $0.alias.lowercased().contains(wanted) }
        if partial.count == 1 { return partial[0] }
        let known = model.devices.map { "\($0.address) (\($0.alias))" }.joined(separator: ", ")
        if partial.count > 1 { throw BluezError("'\(text)' names more than one device: \(partial.map(\.address).joined(separator: ", ")); give the address") }
        throw BluezError("BlueZ knows no device '\(text)'; known: \(known.isEmpty ? "none (pair the glasses first: glasses-audio pair ADDRESS)" : known)")
    }

    /// Connects or disconnects the device `text` names (or one profile of it), and returns
    /// once BlueZ's objects show the result (at most `timeout` after BlueZ answered).
    public func perform(_ request: BluezLinkRequest, on text: String, timeout: Duration = .seconds(5)) async throws -> BluezLinkResult {
        let device = try device(named: text)
        let id = device.identifier
        let changed: Bool
        switch (request.connect, request.profile) {
        case (true, nil): changed = try await connect(id)
        case (false, nil): changed = try await disconnect(id)
        case (let up, let profile?):
            let uuid = try Self.uuid(for: profile, of: device)
            changed = up ? try await connectProfile(id, uuid: uuid) : try await disconnectProfile(id, uuid: uuid)
        }
        // Device1.Connect answers once the link is up, but its signals may still be on their
        // way to the model: wait for them (the link, then, for a new link, the services being
        // resolved, which BlueZ says last), so what is printed is what BlueZ says now.
        let linked = request.connect || request.profile != nil
        await awaitDevice(id, timeout: timeout) { $0.connected == linked }
        if linked && changed && request.profile == nil {
            await awaitDevice(id, timeout: .seconds(2)) { $0.servicesResolved }
        }
        return BluezLinkResult(device: self.model.device(id) ?? device, changed: changed)
    }

    /// Returns once the model shows the device as `done` says (or `timeout` passed).
    private func awaitDevice(_ id: DeviceIdentifier, timeout: Duration, until done: @escaping @Sendable (BluezDevice) -> Bool) async {
        _ = try? await awaitModel(timeout: timeout) { model in model.device(id).map(done) ?? false }
    }

    /// The UUID `ConnectProfile` takes for a profile on this device.
    static func uuid(for profile: AudioProfile, of device: BluezDevice) throws -> String {
        switch profile {
        case .voice where device.roles.contains(.handsfree): return BluetoothUUID.handsfree
        case .voice where device.roles.contains(.headset): return BluetoothUUID.headset
        case .media where device.roles.hasMedia: return BluetoothUUID.a2dpSink
        case .voice, .media:
            throw BluezError("\(device.alias) (\(device.address)) offers no \(profile.rawValue) profile; it offers \(device.roles.names.joined(separator: ", ").isEmpty ? "none" : device.roles.names.joined(separator: ", "))")
        case .off:
            throw BluezError("'off' is not a profile to connect; use disconnect")
        }
    }
}
