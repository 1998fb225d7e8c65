public import ArgumentParser

/// glasses-audiod's flags. Values stay text here and go through ``ConfigurationKey``'s table,
/// so a bad flag, a bad environment variable and a bad line in the file read alike.
public struct DaemonOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp("YAML file of settings (default: $GLASSES_AUDIOD_CONFIG).", valueName: "file"))
    public var configFile: String?

    @Option(help: optionHelp("backend")) var backend: String?
    @Option(name: .customLong("data-dir"), help: optionHelp("data-dir", valueName: "dir")) var dataDir: String?
    @Option(name: .customLong("http-port"), parsing: .unconditional, help: optionHelp("http-port", default: "8742")) var httpPort: String?
    @Option(name: .customLong("wyoming-port"), parsing: .unconditional, help: optionHelp("wyoming-port", default: "10700")) var wyomingPort: String?
    @Option(name: .customLong("esphome-port"), parsing: .unconditional, help: optionHelp("esphome-port", default: "6053")) var esphomePort: String?
    @Option(name: .customLong("esphome-key"), help: optionHelp("esphome-key", valueName: "base64|none")) var esphomeKey: String?
    @Option(help: optionHelp("bind", default: "127.0.0.1")) var bind: String?
    @Option(name: .customLong("wyoming-bind"), help: optionHelp("wyoming-bind", valueName: "address")) var wyomingBind: String?
    @Option(name: .customLong("wyoming-allow"), help: optionHelp("wyoming-allow", valueName: "peers")) var wyomingAllow: String?
    @Option(help: optionHelp("model", default: "ray-ban-meta-gen-2")) var model: String?
    @Option(help: optionHelp("mic", valueName: "file")) var mic: String?
    @Option(name: .customLong("mic-mode"), help: optionHelp("mic-mode", default: "loop")) var micMode: String?
    @Option(name: .customLong("speaker-out"), help: optionHelp("speaker-out", valueName: "file")) var speakerOut: String?
    @Option(help: optionHelp("server")) var server: String?
    @Option(help: optionHelp("profiles", valueName: "dir")) var profiles: String?
    @Option(help: optionHelp("policy", default: "mediaFirst")) var policy: String?
    @Option(help: optionHelp("listen", default: "true")) var listen: String?
    @Option(help: optionHelp("ble", default: "on")) var ble: String?
    @Option(name: .customLong("assistant-backend"), help: optionHelp("assistant-backend", default: "auto")) var assistantBackend: String?
    @Option(name: .customLong("log-level"), help: optionHelp("log-level", default: "info")) var logLevel: String?
    @Option(name: .customLong("event-retention"), parsing: .unconditional, help: optionHelp("event-retention", default: "10000")) var eventRetention: String?
    @Option(name: .customLong("body-limit"), parsing: .unconditional, help: optionHelp("body-limit", default: "65536")) var bodyLimit: String?

    public init() {}

    /// The flags given, by key name.
    public var values: [String: String] {
        let pairs: [(String, String?)] = [
            ("backend", backend), ("data-dir", dataDir), ("http-port", httpPort), ("wyoming-port", wyomingPort), ("esphome-port", esphomePort), ("esphome-key", esphomeKey), ("bind", bind), ("wyoming-bind", wyomingBind), ("wyoming-allow", wyomingAllow),
            ("model", model), ("mic", mic), ("mic-mode", micMode), ("speaker-out", speakerOut), ("server", server),
            ("profiles", profiles), ("policy", policy), ("listen", listen), ("ble", ble), ("assistant-backend", assistantBackend), ("log-level", logLevel),
            ("event-retention", eventRetention), ("body-limit", bodyLimit),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.compactMap { key, value in value.map { (key, $0) } })
    }

}

/// A flag's help: the values its key allows, its default, its environment variable.
private func optionHelp(_ key: String, default value: String? = nil, valueName: String? = nil) -> ArgumentHelp {
    let allowed = ConfigurationKey.named(key)?.allowed ?? ""
    let fallback = value.map { "; default \($0)" } ?? ""
    let variable = ConfigurationKey.named(key)?.environmentName ?? ""
    return ArgumentHelp("\(allowed)\(fallback) (or \(variable)).", valueName: valueName)
}
