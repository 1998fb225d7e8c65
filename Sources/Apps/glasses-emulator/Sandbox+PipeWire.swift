import Foundation

/// PipeWire instead of PulseAudio in the sandbox: `pipewire`, WirePlumber (whose Bluetooth
/// monitor loads PipeWire's bluez5 plugin) and `pipewire-pulse`, whose socket is where
/// PulseAudio's would be, so `pulseServer` is the same.
extension Sandbox {
    /// The sound servers the sandbox can run.
    enum SoundServer: String, CaseIterable {
        case pulseaudio
        case pipewire
        case bluealsa
    }

    /// Starts PipeWire on our bus as its system bus, with a private session bus (WirePlumber
    /// needs one) and WirePlumber set to oFono for HFP and to no logind (which would wait for a
    /// seat); returns once pipewire-pulse answers.
    func startPipeWire() throws {
        let config = "\(directory)/config/wireplumber/bluetooth.lua.d"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try """
            bluez_monitor.properties["bluez5.hfphsp-backend"] = "ofono"
            bluez_monitor.properties["with-logind"] = false
            """.write(toFile: config + "/60-glasses-emulator.lua", atomically: true, encoding: .utf8)
        let sessionBus = "unix:path=\(directory)/session-bus"
        try """
            <busconfig><type>session</type><listen>\(sessionBus)</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/></policy></busconfig>
            """.write(toFile: directory + "/session-bus.conf", atomically: true, encoding: .utf8)
        try spawn(
            "dbus-daemon", ["--config-file=\(directory)/session-bus.conf", "--nofork", "--nopidfile", "--nosyslog"], log: "session-bus.log")
        try waitUntil("the session bus to listen") { Self.acceptsConnections("\(self.directory)/session-bus") }
        let environment = [
            "XDG_RUNTIME_DIR": directory, "PIPEWIRE_RUNTIME_DIR": directory, "HOME": "\(directory)/home",
            "XDG_CONFIG_HOME": "\(directory)/config", "XDG_STATE_HOME": "\(directory)/state", "XDG_DATA_HOME": "\(directory)/data",
            "DBUS_SESSION_BUS_ADDRESS": sessionBus, "DBUS_SYSTEM_BUS_ADDRESS": busAddress,
            "PIPEWIRE_REMOTE": "", "DISPLAY": "", "WAYLAND_DISPLAY": "",
        ]
        try spawn("pipewire", [], environment: environment, log: "pipewire.log")
        try waitUntil("pipewire to listen") { FileManager.default.fileExists(atPath: "\(self.directory)/pipewire-0") }
        try spawn("wireplumber", [], environment: environment, log: "wireplumber.log")
        try spawn("pipewire-pulse", [], environment: environment, log: "pipewire-pulse.log")
        try waitUntil("pipewire-pulse to answer") { FileManager.default.fileExists(atPath: "\(self.directory)/pulse/native") }
    }
}
