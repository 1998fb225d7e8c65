import AudioBackend
import AudioCore
import Foundation
import Logging
import Routing
import WyomingServer

/// One setting of the daemon: its name in the YAML file (and, as `--name`, its flag; as
/// `GLASSES_AUDIOD_NAME`, its environment variable), the values it takes, and how a text
/// value is applied.
public struct ConfigurationKey: Sendable {
    public let name: String
    /// The values allowed, in words, for error messages and `--help`.
    public let allowed: String
    let apply: @Sendable (inout DaemonConfiguration, String) -> Bool

    init(_ name: String, allowed: String, apply: @escaping @Sendable (inout DaemonConfiguration, String) -> Bool) {
        self.name = name
        self.allowed = allowed
        self.apply = apply
    }

    /// The environment variable that sets this key.
    public var environmentName: String {
        "GLASSES_AUDIOD_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Every key, in the order `--help` and the sample file list them.
    public static let all: [ConfigurationKey] = [
        choice("backend", BackendKind.allCases.map(\.rawValue) + ["auto"]) { config, value in
            config.backend = BackendKind(rawValue: value)
        },
        text("data-dir", "a folder path") { $0.dataDirectory = $1 },
        integer("http-port", 0...65535, note: " (0: any free port)") { $0.httpPort = $1 },
        integer("wyoming-port", 0...65535, note: " (0: any free port)") { $0.wyomingPort = $1 },
        integer("esphome-port", 0...65535, note: " (0: any free port)") { $0.esphomePort = $1 },
        parsed(
            "esphome-key",
            "ESPHome's encryption key, base64 of 32 bytes (as api: encryption: key:), or none for plaintext (default: made once into DATA_DIR/esphome_key)",
            ESPHomeKeySetting.init
        ) { $0.esphomeKey = $1 },
        text("bind", "an IP address to listen on, e.g. 127.0.0.1 or 0.0.0.0") { $0.bind = $1 },
        text("wyoming-bind", "an IP address for the Wyoming port alone, e.g. 127.0.0.1 (default: bind's)") { $0.wyomingBind = $1 },
        parsed(
            "wyoming-allow", "addresses or networks allowed on the Wyoming port, comma-separated, e.g. 192.168.1.20,10.0.0.0/8",
            WyomingPeerFilter.init
        ) { $0.wyomingAllow = $1 },
        text("model", "a profile id from profiles/ (simulated glasses)") { $0.model = $1 },
        text("mic", "a WAV file the simulated mic plays") { $0.mic = $1 },
        choice("mic-mode", MicFeed.Mode.allCases.map(\.rawValue)) { $0.micMode = MicFeed.Mode(rawValue: $1)! },
        text("speaker-out", "a WAV path for what the simulated speaker played") { $0.speakerOut = $1 },
        text("server", "a PulseAudio server address") { $0.server = $1 },
        text("profiles", "a folder of device profiles") { $0.profiles = $1 },
        choice("policy", SwitchingPolicy.allCases.map(\.rawValue)) { $0.policy = SwitchingPolicy(rawValue: $1)! },
        choice("assistant-backend", AssistantBackendChoice.allCases.map(\.rawValue)) {
            $0.assistantBackend = AssistantBackendChoice(rawValue: $1)!
        },
        choice("listen", ["true", "false"]) { $0.listen = $1 == "true" },
        choice("ble", ["on", "off", "true", "false"]) { $0.ble = $1 == "on" || $1 == "true" },
        choice("log-level", Logger.Level.allCases.map(\.rawValue)) { $0.logLevel = Logger.Level(rawValue: $1)! },
        integer("event-retention", 10...10_000_000) { $0.eventRetention = $1 },
        integer("body-limit", 1024...16_777_216, note: " bytes") { $0.bodyLimit = $1 },
        integer("watchdog-seconds", 1...3600) { $0.watchdogInterval = .seconds($1) },
    ]

    public static func named(_ name: String) -> ConfigurationKey? { all.first { $0.name == name } }

    // MARK: - Kinds of key

    /// A key whose text `parse` turns into a value (`nil`: not one of the values allowed).
    static func parsed<Value>(
        _ name: String, _ allowed: String, _ parse: @escaping @Sendable (String) -> Value?,
        _ set: @escaping @Sendable (inout DaemonConfiguration, Value) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(name, allowed: allowed) { config, value in
            guard let parsed = parse(value) else { return false }
            set(&config, parsed)
            return true
        }
    }

    static func text(_ name: String, _ allowed: String, _ set: @escaping @Sendable (inout DaemonConfiguration, String) -> Void)
        -> ConfigurationKey
    {
        ConfigurationKey(name, allowed: allowed + " (not empty)") { config, value in
            guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { return false }
            set(&config, value)
            return true
        }
    }

    static func choice(
        _ name: String, _ values: [String], _ set: @escaping @Sendable (inout DaemonConfiguration, String) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(name, allowed: "one of " + values.joined(separator: ", ")) { config, value in
            guard values.contains(value) else { return false }
            set(&config, value)
            return true
        }
    }

    static func integer(
        _ name: String, _ range: ClosedRange<Int>, note: String = "",
        _ set: @escaping @Sendable (inout DaemonConfiguration, Int) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(name, allowed: "a whole number in \(range.lowerBound)...\(range.upperBound)\(note)") { config, value in
            guard let number = Int(value.trimmingCharacters(in: .whitespaces)), range.contains(number) else { return false }
            set(&config, number)
            return true
        }
    }
}
