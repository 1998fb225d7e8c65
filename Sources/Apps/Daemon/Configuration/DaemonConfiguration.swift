public import AudioBackend
public import AudioCore
import Foundation
public import Logging
public import Routing
public import WyomingServer

/// Everything glasses-audiod is told: built from defaults, then a YAML file, then the
/// environment (`GLASSES_AUDIOD_*`), then flags; each later source wins. Every value goes
/// through one table of keys (``ConfigurationKey``), so a bad one is reported the same way
/// wherever it came from: its key, where it was given, and the values allowed.
public struct DaemonConfiguration: Sendable, Equatable {
    /// The backend asked for; `nil` picks one (pulse if a server answers, else simulated).
    public var backend: BackendKind?
    /// Where the store, the API key and the command recordings live.
    public var dataDirectory: String
    public var httpPort: Int = 8742
    public var wyomingPort: Int = 10700
    /// ESPHome's native API (Home Assistant's ESPHome integration), on ``bind``.
    public var esphomePort: Int = 6053
    /// ESPHome's encryption: a key made once into `DATA_DIR/esphome_key` (the default), a
    /// given one, or none (plaintext).
    public var esphomeKey: ESPHomeKeySetting = .generated
    /// The address the servers listen on (loopback unless told otherwise).
    public var bind: String = "127.0.0.1"
    /// The address the Wyoming server listens on, when it differs from ``bind`` (the HTTP API
    /// has a key; the Wyoming protocol has no authentication).
    public var wyomingBind: String?
    /// Peers allowed on the Wyoming port (`nil`: any that reach it).
    public var wyomingAllow: WyomingPeerFilter?
    /// Simulated glasses: the model (a profile id), the WAV its mic plays, how, and where
    /// what its speaker played is saved on shutdown.
    public var model: String = "ray-ban-meta-gen-2"
    public var mic: String?
    public var micMode: MicFeed.Mode = .loop
    public var speakerOut: String?
    /// PulseAudio server (`nil`: `$PULSE_SERVER` or the user's).
    public var server: String?
    /// Folder of device profiles (`nil`: `$GLASSES_AUDIO_PROFILES` or the shipped folder).
    public var profiles: String?
    public var policy: SwitchingPolicy = .mediaFirst
    /// Where commands go: the local grammar, Home Assistant over the Wyoming satellite, or a
    /// custom backend on the WebSocket API.
    public var assistantBackend: AssistantBackendChoice = .auto
    /// Whether the assistant listens for the wake word from the start (else only on
    /// `POST /api/listen` or after `POST /api/control/wake`).
    public var listen: Bool = true
    /// Whether the companion app's Bluetooth LE side runs (seed 001's GATT services and
    /// advertisement through BlueZ): on by default; it says so in one line when there is no
    /// BlueZ or no LE adapter.
    public var ble: Bool = true
    public var logLevel: Logger.Level = .info
    /// Events kept in the event log (the oldest go first).
    public var eventRetention: Int = 10_000
    /// Largest request body accepted, in bytes (413 above).
    public var bodyLimit: Int = 64 * 1024
    /// How often the watchdog is fed under systemd (`nil`: half of `$WATCHDOG_USEC`).
    public var watchdogInterval: Duration?

    public init(dataDirectory: String = DaemonConfiguration.defaultDataDirectory()) {
        self.dataDirectory = dataDirectory
    }

    /// `$STATE_DIRECTORY` under systemd, else `$XDG_DATA_HOME/glasses-audiod`, else
    /// `~/.local/share/glasses-audiod`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["STATE_DIRECTORY"], !state.isEmpty {
            return state.split(separator: ":").first.map(String.init) ?? state
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/glasses-audiod" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/glasses-audiod"
    }
}

/// Where the ESPHome API's Noise pre-shared key comes from.
public enum ESPHomeKeySetting: Sendable, Equatable {
    /// Made once (32 random bytes) into `DATA_DIR/esphome_key`, mode 0600.
    case generated
    /// Given in the configuration: base64 of 32 bytes, as ESPHome's `api: encryption: key:`.
    case given([UInt8])
    /// No encryption: plaintext clients only.
    case none

    /// `none`, or base64 of exactly 32 bytes; `nil` for anything else.
    public init?(_ text: String) {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value == "none" {
            self = .none
            return
        }
        guard let data = Data(base64Encoded: value), data.count == 32 else { return nil }
        self = .given(Array(data))
    }
}
