import BluetoothIDs
public import DBusKit

/// Our `org.bluez.Agent1` for pairing glasses, which have no keyboard and no display: it
/// registers as `NoInputNoOutput`, so BlueZ pairs them with Secure Simple Pairing's Just Works
/// and asks only for confirmations, which it gives. A PIN or passkey request (legacy or
/// keyboard pairing) is refused with a reason, never guessed.
public enum BluezPairingAgent {
    public static let path = "/org/glassesaudio/agent"
    public static let capability = "NoInputNoOutput"
    public static let interface = BluezAgentName.interface
    public static let agentManager = BluezAgentName.manager

    /// What the agent answers to one of Agent1's methods: nothing (accept), or a refusal.
    public enum Answer: Equatable, Sendable {
        case accept
        case reject(String)
    }

    /// The whole policy, without I/O.
    public static func answer(to method: String) -> Answer {
        switch method {
        case "RequestConfirmation", "RequestAuthorization", "AuthorizeService",
             "DisplayPasskey", "DisplayPinCode", "Release", "Cancel":
            .accept
        case "RequestPinCode", "RequestPasskey":
            .reject("glasses-audio pairs glasses without a keyboard (Just Works); this device asked for a PIN or passkey: pair it with bluetoothctl")
        default:
            .reject("unknown Agent1 method \(method)")
        }
    }

    /// The interface exported on the connection, each method answering as `answer(to:)` says.
    public static func dbusInterface() -> DBusInterface {
        DBusInterface.answering(interface, methods: BluezAgentName.methods) { method in
            guard case .reject(let reason) = answer(to: method) else { return nil }
            return DBusError("org.bluez.Error.Rejected", reason)
        }
    }
}
