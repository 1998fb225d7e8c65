import ALSABackend
import BluezModel
import PulseBackend
import Routing

extension DoctorFacts {
    /// One check per line, in the order a person would look: sound server, its bluetooth
    /// part, the system bus, BlueZ, adapters, each pair of glasses, the kernel's controllers.
    public var checks: [DoctorCheck] {
        soundServerChecks + bluezChecks + [hciCheck] + alsaChecks + backendCheck
    }

    /// ALSA and BlueALSA are what a host without a sound server uses: reported, never failed
    /// (a host with PulseAudio or PipeWire needs neither).
    private var alsaChecks: [DoctorCheck] {
        guard let alsa else { return [] }
        let cards = alsa.cards.isEmpty
            ? "no sound cards"
            : alsa.cards.map { "card \($0.index) \($0.id) (\($0.name))" }.joined(separator: ", ")
        var checks: [DoctorCheck] = [.ok("ALSA", "libasound \(alsa.library); \(cards); PCMs: \(alsa.pcms.joined(separator: ", "))")]
        guard let version = alsa.blueALSAVersion else {
            checks.append(.skipped("BlueALSA", "not installed; without a sound server, Bluetooth needs it (Debian: apt-get install bluez-alsa-utils libasound2-plugin-bluez)"))
            return checks
        }
        guard let pcms = alsa.blueALSAPCMs else {
            checks.append(.skipped("BlueALSA", "\(version) installed, not on the system bus (start it: bluealsa -p a2dp-source -p hfp-ofono, or systemctl start bluealsa)"))
            return checks
        }
        let names = pcms.map { "\($0.alsaName) (\($0.direction == .source ? "capture" : "playback"))" }
        checks.append(.ok("BlueALSA", "\(version) on the system bus; " + (names.isEmpty ? "no PCMs (no glasses connected)" : names.joined(separator: ", "))))
        return checks
    }

    private var backendCheck: [DoctorCheck] {
        switch backendChoice {
        case nil: []
        case .success(let line): [.ok("backend", line)]
        case .failure(let problem): [.failed("backend", problem.message, fix: "set GLASSES_AUDIO_BACKEND to simulated, pulse or alsa, or unset it")]
        }
    }

    private var soundServerChecks: [DoctorCheck] {
        switch soundServer {
        case .failure(let problem):
            return [
                .failed("sound server", "no PulseAudio or PipeWire server answered (\(problem.message))",
                        fix: "start one (pulseaudio --start, or systemctl --user start pipewire-pulse) or set PULSE_SERVER"),
                .skipped("bluetooth in the sound server", "no sound server to ask"),
            ]
        case .success(let info):
            let kind = info.isPipeWire ? "PipeWire's pulse server" : "PulseAudio"
            let server = DoctorCheck.ok("sound server", "\(kind): \(info.name) \(info.version)")
            if info.isPipeWire {
                // PipeWire's Bluetooth lives in its bluez5 SPA plugin, run by WirePlumber, not
                // in pulse modules; its cards show once glasses connect.
                return [server, .skipped("bluetooth in the sound server", "PipeWire's bluez5 plugin is WirePlumber's to load; not visible through the pulse API")]
            }
            let modules = info.bluetoothModules.map(\.name)
            guard let backend = info.headsetBackend else {
                return [server, .failed(
                    "bluetooth in the sound server", "module-bluez5-discover is not loaded",
                    fix: "pactl load-module module-bluez5-discover headset=ofono (Debian: apt-get install pulseaudio-module-bluetooth)")]
            }
            let hfp = switch backend {
            case "ofono": "HFP through oFono"
            case "native": "HFP/HSP native (PulseAudio's own)"
            default: "HFP backend \(backend)"
            }
            let bluetooth = DoctorCheck.ok("bluetooth in the sound server", "\(modules.joined(separator: ", ")); \(hfp)")
            return [server, bluetooth] + (Self.wideband(info, backend: backend).map { [$0] } ?? [])
        }
    }

    /// PulseAudio 16's own HFP with mSBC on (its default): in the lab its mSBC link wrote no SCO
    /// packet, its IO thread spun, and the kernel killed the server (RLIMIT_RTTIME), taking every
    /// sound with it (docs/bluez.md, "Wideband speech"); said, with the way back to CVSD. Nil
    /// for other versions and backends.
    static func wideband(_ info: PulseServerInfo, backend: String) -> DoctorCheck? {
        guard info.version.hasPrefix("16."), backend == "native" || backend == "auto" else { return nil }
        let discover = info.modules.first { $0.name == "module-bluez5-discover" }?.argument ?? ""
        let off = discover.split(separator: " ").contains { ["enable_msbc=false", "enable_msbc=no", "enable_msbc=0"].contains($0) }
        if off { return .ok("wideband speech (mSBC)", "off (enable_msbc=false): the glasses' voice link is CVSD, 8 kHz") }
        return .ok("wideband speech (mSBC)", "on (PulseAudio 16's default); in the lab PulseAudio 16.1 was killed on an mSBC link "
            + "(its IO thread spun, no audio reached the glasses): if switching the glasses to their headset profile stops the server, "
            + "load module-bluetooth-discover with enable_msbc=false")
    }

    private var bluezChecks: [DoctorCheck] {
        let model: BluezObjectModel
        switch bluez {
        case .failure(let problem):
            return [
                .failed("system bus", problem.message,
                        fix: "start D-Bus's system bus (service dbus start), or set DBUS_SYSTEM_BUS_ADDRESS to it"),
                .skipped("BlueZ", "no system bus to look on"),
            ]
        case .success(let found):
            model = found
        }
        var checks: [DoctorCheck] = [.ok("system bus", systemBus)]
        guard model.isServiceUp else {
            checks.append(.failed(
                "BlueZ", "org.bluez is not on the system bus; the sound server alone says what is linked",
                fix: "install bluez and start bluetoothd (systemctl start bluetooth)"))
            return checks
        }
        checks.append(.ok("BlueZ", "org.bluez on the system bus"))
        let adapters = model.adapters
        if adapters.isEmpty {
            checks.append(.failed("adapters", "BlueZ has no adapter", fix: "plug in a Bluetooth controller, or check rfkill list"))
        }
        for adapter in adapters {
            let line = "\(adapter.path.split(separator: "/").last ?? "") \(adapter.address)"
            checks.append(adapter.powered
                ? .ok("adapter", "\(line), powered\(adapter.discovering ? ", discovering" : "")")
                : .failed("adapter", "\(line) is powered off", fix: "bluetoothctl power on (or rfkill unblock bluetooth)"))
        }
        let audio = model.devices.filter { $0.isAudio && ($0.paired || $0.connected) }
        if audio.isEmpty && !adapters.isEmpty {
            let others = model.devices.filter(\.paired).map { "\($0.alias) (\($0.address))" }
            checks.append(.failed(
                "glasses", "no paired audio device" + (others.isEmpty ? "" : "; paired without an audio profile: \(others.joined(separator: ", "))"),
                fix: "pair the glasses: bluetoothctl scan on, then pair, trust and connect <address>"))
        }
        for device in audio { checks.append(glassesCheck(device)) }
        return checks
    }

    private func glassesCheck(_ device: BluezDevice) -> DoctorCheck {
        let name = "glasses \(device.alias) (\(device.address))"
        let roles = device.roles.names.joined(separator: " + ")
        let battery = device.battery.map { ", battery \($0)%" } ?? ""
        guard device.connected else {
            return .failed(name, "paired, not connected; offers \(roles)\(battery)", fix: "turn them on or unfold them, then glasses-audio connect \(device.address)")
        }
        if !device.trusted {
            return .failed(name, "connected but not trusted (reconnects will ask)", fix: "bluetoothctl trust \(device.address)")
        }
        guard case .success = soundServer else {
            return .ok(name, "connected, \(roles)\(battery); no sound server to carry the audio")
        }
        guard let card = soundServerDevices.first(where: { $0.identifier == device.identifier }) else {
            return .failed(
                name, "connected (\(roles)\(battery)) but the sound server has no card for them",
                fix: "check the sound server's bluetooth module and its HFP backend (pactl list cards); reconnect with glasses-audio connect \(device.address)")
        }
        let profiles = card.availableProfiles.filter { $0 != .off }.map(\.rawValue).joined(separator: "/")
        return .ok(name, "connected, \(roles)\(battery); card on \(card.activeProfile.rawValue) (offers \(profiles))")
    }

    private var hciCheck: DoctorCheck {
        if let unavailable = hci.unavailable {
            return .failed(
                "HCI controllers", unavailable,
                fix: "real glasses need a kernel with Bluetooth (CONFIG_BT, btusb) and a controller; glasses-emulator needs neither")
        }
        guard !hci.controllers.isEmpty else {
            return .failed("HCI controllers", "the kernel has Bluetooth but no controller", fix: "plug in a controller, or rfkill unblock bluetooth")
        }
        let lines = hci.controllers.map { controller in
            "\(controller.name) \(controller.address) \(controller.isUp ? "up" : "down"), "
                + (controller.wideband ? "mSBC possible (eSCO, transparent SCO)" : "no wideband speech (\(controller.supportsESCO ? "" : "no eSCO")\(controller.supportsESCO || controller.supportsTransparentSCO ? "" : ", ")\(controller.supportsTransparentSCO ? "" : "no transparent SCO"))")
        }
        return .ok("HCI controllers", lines.joined(separator: "; "))
    }
}
