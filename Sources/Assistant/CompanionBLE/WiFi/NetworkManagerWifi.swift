import BluetoothIDs
import DBusKit
public import Logging

/// The Wi-Fi Config service's hands: it asks NetworkManager (over the system bus) to join the
/// network the app wrote (`AddAndActivateConnection` on the first Wi-Fi device), follows that
/// device's `StateChanged`, and reads its address (IP4Config) once connected. Every change is
/// reported to the peripheral, which notifies the app. The password is passed to NetworkManager
/// only: never logged, never kept. No NetworkManager or no Wi-Fi device: status "failed" with
/// the reason, one log line per reason, and the daemon runs on.
public actor NetworkManagerWifi {
    static let service = "org.freedesktop.NetworkManager"
    static let path = "/org/freedesktop/NetworkManager"
    static let device = "org.freedesktop.NetworkManager.Device"
    static let wireless = "org.freedesktop.NetworkManager.Device.Wireless"
    static let accessPoint = "org.freedesktop.NetworkManager.AccessPoint"
    static let ip4Config = "org.freedesktop.NetworkManager.IP4Config"
    /// NMDeviceType's Wi-Fi.
    static let wifiType: Int64 = 2

    let bus: DBusConnection
    let logger: Logger
    let report: @Sendable (WifiReport) -> Void
    private var devicePath: String?
    private var lastLogged: String?
    /// Counts the joins asked for: a state read that began before the latest one is stale
    /// (the actor's awaits let a join start in the middle of a read).
    private var joins = 0

    public init(bus: DBusConnection, logger: Logger, report: @escaping @Sendable (WifiReport) -> Void) {
        self.bus = bus
        self.logger = logger
        self.report = report
    }

    /// Finds the Wi-Fi device, says its status, then follows its state changes (until `signals` ends).
    public func follow(_ signals: AsyncStream<DBusMessage>) async {
        do {
            try await bus.addMatch("type='signal',sender='\(Self.service)',interface='\(Self.device)',member='StateChanged'")
        } catch {
            fail("NetworkManager's signals could not be followed (\(error))")
        }
        if let device = try? await findDevice() { await refresh(device) }
        for await signal in signals where signal.member == "StateChanged" && signal.interface == Self.device {
            guard let device = devicePath, signal.path == device else { continue }
            let arguments = signal.arguments
            let state = UInt32(clamping: arguments.first?.integer ?? 0)
            guard WifiStatus.says(new: state, old: UInt32(clamping: arguments.dropFirst().first?.integer ?? 0)) else { continue }
            let status = WifiStatus(deviceState: state)
            if status == .failed {
                fail(WifiStatus.failureReason(UInt32(clamping: arguments.dropFirst(2).first?.integer ?? 0)))
            } else {
                await refresh(device, state: state)
            }
        }
    }

    /// Joins `ssid` with `password`: the refusal is a GATT error for the write (and status "failed").
    public func connect(ssid: String, password: String) async throws(GATTError) {
        let settings = try WifiConnectionSettings.make(ssid: ssid, password: password)
        let device: String
        do {
            device = try await findDevice()
        } catch {
            throw GATTError(.failed, error.reason)
        }
        joins += 1
        report(WifiReport(status: .connecting))
        logger.info("wifi: asking NetworkManager to join '\(ssid)' on \(device)")
        let accessPoint = await accessPoint(named: ssid, on: device) ?? "/"
        do {
            _ = try await bus.call(
                Self.service, Self.path, Self.service, "AddAndActivateConnection",
                [settings, .objectPath(device), .objectPath(accessPoint)])
        } catch {
            let reason = "NetworkManager did not take the network: \(error)"
            fail(reason)
            throw GATTError(.failed, reason)
        }
        await refresh(device)
    }

    /// The first Wi-Fi device NetworkManager manages; status "failed" and a `WifiUnavailable` when none.
    private func findDevice() async throws(WifiUnavailable) -> String {
        guard (try? await bus.owner(of: Self.service)) ?? nil != nil else {
            throw unavailable("NetworkManager (\(Self.service)) is not on the system bus; is it running?")
        }
        let devices: [String]
        do {
            devices = try await bus.call(Self.service, Self.path, Self.service, "GetDevices").first?.arrayItems?.compactMap(\.string) ?? []
        } catch {
            throw unavailable("NetworkManager did not list its devices (\(error))")
        }
        for device in devices where (try? await property(device, Self.device, "DeviceType"))?.integer == Self.wifiType {
            devicePath = device
            return device
        }
        throw unavailable("NetworkManager has no Wi-Fi device")
    }

    private func unavailable(_ reason: String) -> WifiUnavailable {
        devicePath = nil
        fail(reason)
        return WifiUnavailable(reason: reason)
    }

    /// The access point whose SSID is `ssid`, as NetworkManager last saw it (nil: let it choose).
    private func accessPoint(named ssid: String, on device: String) async -> String? {
        guard let points = (try? await property(device, Self.wireless, "AccessPoints"))?.arrayItems?.compactMap(\.string) else { return nil }
        for point in points where (try? await property(point, Self.accessPoint, "Ssid"))?.byteArray == Array(ssid.utf8) {
            return point
        }
        return nil
    }

    /// Reads the device's state (and address when connected) and reports them.
    private func refresh(_ device: String, state known: UInt32? = nil) async {
        let join = joins
        var state = known
        if state == nil, let read = (try? await property(device, Self.device, "State"))?.integer { state = UInt32(clamping: read) }
        guard let state, join == joins else { return }
        let status = WifiStatus(deviceState: state)
        guard status != .failed else {
            fail("NetworkManager's Wi-Fi device is in the failed state")
            return
        }
        let address = status == .connected ? await address(of: device) : nil
        guard join == joins else { return }
        report(WifiReport(status: status, address: address))
        if status == .connected { lastLogged = nil }
    }

    private func address(of device: String) async -> IPv4Address? {
        guard let config = (try? await property(device, Self.device, "Ip4Config"))?.string, config != "/",
            let first = (try? await property(config, Self.ip4Config, "AddressData"))?.arrayItems?.first?.propertyMap,
            let address = first["address"]?.string
        else { return nil }
        let gateway = (try? await property(config, Self.ip4Config, "Gateway"))?.string
        return IPv4Address(address: address, prefix: Int(first["prefix"]?.integer ?? 32), gateway: gateway?.isEmpty == false ? gateway : nil)
    }

    private func property(_ path: String, _ interface: String, _ name: String) async throws -> DBusValue? {
        try await bus.call(Self.service, path, FreedesktopName.properties, "Get", [.string(interface), .string(name)]).first
    }

    /// Status "failed" with `reason`: reported each time, logged once until it changes.
    private func fail(_ reason: String) {
        report(WifiReport(status: .failed, reason: reason))
        if lastLogged != reason {
            logger.notice("wifi: \(reason)")
            lastLogged = reason
        }
    }
}

struct WifiUnavailable: Error {
    var reason: String
}
