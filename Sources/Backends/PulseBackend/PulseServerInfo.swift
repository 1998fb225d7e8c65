/// A PulseAudio server (or PipeWire's pulse server) as it describes itself.
public struct PulseServerInfo: Sendable, Hashable, Codable {
    /// `pulseaudio`, or `PulseAudio (on PipeWire 0.3.65)`.
    public var name: String
    public var version: String
    public var modules: [Module]

    public init(name: String, version: String, modules: [Module]) {
        self.name = name
        self.version = version
        self.modules = modules
    }

    public struct Module: Sendable, Hashable, Codable {
        public var name: String
        public var argument: String

        public init(name: String, argument: String) {
            self.name = name
            self.argument = argument
        }
    }

    /// Whether it is PipeWire's pulse server.
    public var isPipeWire: Bool { name.lowercased().contains("pipewire") }

    /// The bluetooth modules it runs (`module-bluez5-discover`, `module-bluetooth-policy`…).
    public var bluetoothModules: [Module] { modules.filter { $0.name.contains("bluez") || $0.name.contains("bluetooth") } }

    /// The HFP backend PulseAudio's discover module was given (`headset=ofono|native|auto`),
    /// `auto` when not given, nil without the module.
    public var headsetBackend: String? {
        guard let discover = modules.first(where: { $0.name == "module-bluez5-discover" }) else { return nil }
        let setting = discover.argument.split(separator: " ").first { $0.hasPrefix("headset=") }
        return setting.map { String($0.dropFirst("headset=".count)) } ?? "auto"
    }
}

extension PulseAudioBackend {
    /// Asks `server` (or the user's) what it is and which modules it runs.
    public static func inspect(server: String? = nil) async throws -> PulseServerInfo {
        let context = try PulseContext(server: server, name: "glasses-audio doctor")
        try await context.connect()
        return try await context.serverInfo()
    }
}
