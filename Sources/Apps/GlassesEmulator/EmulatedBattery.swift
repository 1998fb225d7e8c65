import BluetoothIDs
import DBusKit
import Logging
import Synchronization

/// The glasses' battery as the real stack shows it: `Battery1` comes from the sound server's
/// hands-free side (its `BatteryProvider1`), made from what the glasses send over the HFP link
/// (`AT+BIEV=2,N`, Apple's `AT+IPHONEACCEV`). So it appears with the glasses' first report, not
/// at the connect; never while no sound server holds the hands-free link (here: the oFono card
/// shown to a registered agent); and it goes with that link. Glasses that report as soon as the
/// link is up (``EmulatedGlasses/reportsBatteryWithHandsFree``) show it a moment after the card.
extension GlassesEmulator {
    /// The glasses' battery level (percent, 0…100), reported or not.
    public var battery: Int { state.withLock { $0.battery } }

    /// Whether a sound server holds the hands-free link (connected, the card shown to its agent).
    public var handsFreeLinkUp: Bool { state.withLock { $0.handsFreeLinkUp } }

    /// Whether `Battery1` is on the bus (the glasses reported their level over a hands-free link).
    public var batteryShown: Bool { state.withLock { $0.batteryShown } }

    /// The glasses' level becomes `percentage` and they report it: over a hands-free link held
    /// by a sound server `Battery1` appears or changes; with none the report goes nowhere.
    public func setBattery(_ percentage: Int) throws {
        guard (0...100).contains(percentage) else { throw EmulatorError.invalid("battery level \(percentage) is not within 0…100") }
        let linked = state.withLock { state in
            state.battery = percentage
            return state.handsFreeLinkUp
        }
        guard linked else {
            logger.info("battery \(percentage)%: not reported (no sound server holds the hands-free link)")
            return
        }
        try reportBattery()
    }

    /// The hands-free link came up: glasses that report their level at once do.
    func handsFreeLinkCameUp() {
        guard glasses.reportsBatteryWithHandsFree else { return }
        do { try reportBattery() } catch { logger.error("cannot show the battery: \(error)") }
    }

    /// `Battery1` with the current level: added at the first report, changed after.
    private func reportBattery() throws {
        let (level, shown) = state.withLock { state in
            defer { state.batteryShown = true }
            return (state.battery, state.batteryShown)
        }
        if shown {
            try bluez.setProperties(devicePath, BluezName.battery, ["Percentage": .byte(UInt8(level))])
        } else {
            try bluez.add(devicePath, [batteryInterface(level)])
        }
    }

    /// The hands-free link went: so does `Battery1`.
    func withdrawBattery() throws {
        let shown = state.withLock { state in
            defer { state.batteryShown = false }
            return state.batteryShown
        }
        if shown { try bluez.remove(devicePath, interfaces: [BluezName.battery]) }
    }

    /// `Battery1` as bluetoothd 5.66 shows a battery a sound server provides from the HF
    /// indicators (PulseAudio 16's `Source`; PipeWire 0.3.65 gives none): a byte, 0…100.
    private func batteryInterface(_ level: Int) -> DBusInterface {
        DBusInterface(BluezName.battery, properties: [
            "Percentage": .byte(UInt8(level)), "Source": .string("HFP 1.7 HF indicator"),
        ])
    }
}

extension EmulatorState {
    /// A sound server holds the hands-free link: connected, the card shown to its agent.
    var handsFreeLinkUp: Bool { connected && cardShown }
}
