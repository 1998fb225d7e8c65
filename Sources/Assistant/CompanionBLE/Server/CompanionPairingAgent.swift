import BluetoothIDs
import DBusKit
import Logging

/// Our `org.bluez.Agent1` while a pairing window is open, so that the phone can bond over LE.
/// bluetoothd keeps the adapter non-bondable while no agent is registered (its default
/// `AlwaysPairable = false`): a phone's LE pairing then fails with "Pairing Not Supported"
/// (seen on bluetoothd 5.66 in the lab), the link stays unencrypted and the `encrypt-*`
/// characteristics stay shut. The agent is `NoInputNoOutput` (this host has no display for a
/// passkey), so the phone pairs with Just Works; the spoken code, written on that encrypted
/// link, is what authenticates it. Outside a window no new phone can bond; phones bonded before
/// encrypt with their keys.
public enum CompanionPairingAgent {
    public static let path = "/org/glassesaudio/companion_agent"
    public static let capability = "NoInputNoOutput"

    /// What the agent answers to one of Agent1's methods: nothing (accept), or a refusal.
    public enum Answer: Equatable, Sendable {
        case accept
        case reject(String)
    }

    /// The whole policy, without I/O: bonding is confirmed (Just Works asks at most that); no
    /// PIN or passkey is guessed, and no service of an untrusted device is authorised.
    public static func answer(to method: String) -> Answer {
        switch method {
        case "RequestConfirmation", "RequestAuthorization", "Release", "Cancel":
            .accept
        case "RequestPinCode", "RequestPasskey", "DisplayPinCode", "DisplayPasskey":
            .reject("the companion app pairs without a passkey (Just Works); the spoken code authenticates it")
        case "AuthorizeService":
            .reject("the companion app's pairing agent authorises no services")
        default:
            .reject("unknown Agent1 method \(method)")
        }
    }

    static func dbusInterface() -> DBusInterface {
        DBusInterface.answering(BluezAgentName.interface, methods: BluezAgentName.methods) { method in
            guard case .reject(let reason) = answer(to: method) else { return nil }
            return DBusError("org.bluez.Error.Rejected", reason)
        }
    }
}

/// Registers the agent when a window opens and takes it back when the window closes (a window
/// reopened keeps it). Failures are logged: the window stays open, and a phone bonded before
/// can still pair.
actor CompanionAgentRegistration {
    let bus: DBusConnection
    let logger: Logger
    private var registered = false

    init(bus: DBusConnection, server: DBusObjectServer, logger: Logger) throws {
        self.bus = bus
        self.logger = logger
        try server.add(CompanionPairingAgent.path, [CompanionPairingAgent.dbusInterface()])
    }

    func follow(_ event: PairingEvent) async {
        switch event {
        case .opened: await register()
        case .closed(let reason) where reason != .reopened: await unregister()
        default: break
        }
    }

    private func register() async {
        guard !registered else { return }
        do {
            _ = try await bus.call(
                BluezName.service, "/org/bluez", BluezAgentName.manager, "RegisterAgent",
                [.objectPath(CompanionPairingAgent.path), .string(CompanionPairingAgent.capability)])
            registered = true
            _ = try await bus.call(
                BluezName.service, "/org/bluez", BluezAgentName.manager, "RequestDefaultAgent",
                [.objectPath(CompanionPairingAgent.path)])
            logger.info("ble: pairing agent registered (\(CompanionPairingAgent.capability)): phones can bond over LE while the window is open")
        } catch {
            logger.warning("ble: the pairing agent could not be registered (\(error)); a phone not bonded before cannot encrypt its link")
        }
    }

    func unregister() async {
        guard registered else { return }
        registered = false
        _ = try? await bus.call(
            BluezName.service, "/org/bluez", BluezAgentName.manager, "UnregisterAgent",
            [.objectPath(CompanionPairingAgent.path)], timeout: .seconds(2))
        logger.info("ble: pairing agent unregistered: no new phone can bond")
    }
}
