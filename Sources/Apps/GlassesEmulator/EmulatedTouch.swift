import Logging

/// The glasses' touch as the real stack delivers it (docs/bluez.md): an AVRCP pass-through key
/// from the glasses' controller role. Neither sound server passes HFP's `AT+BVRA` on (PipeWire
/// answers ERROR, PulseAudio OK and nothing more), and with no media player registered with
/// BlueZ, bluetoothd turns the key into a key event of its uinput device "NAME (AVRCP)".
extension GlassesEmulator {
    /// bluetoothd's name for the glasses' key device.
    var keysName: String { "\(glasses.name) (AVRCP)" }

    /// AVRCP comes up with the link when the glasses offer it (their A2DP and AVRCP roles):
    /// bluetoothd makes the input device.
    func connectKeys() throws {
        guard glasses.offersMedia, let inputDevices else { return }
        let node = try inputDevices.add(name: keysName, phys: Self.adapterAddress)
        logger.info("AVRCP connected: the keys arrive at \(inputDevices.inputDirectory)/\(node)")
    }

    /// A touch: pass-through PLAY pressed and released, which bluetoothd delivers as KEY_PLAYCD
    /// (200) press and release on its input device. Throws while not connected, or when the
    /// glasses offer no AVRCP or the emulator has no input devices.
    public func touch() throws {
        try keys().pressAndRelease(name: keysName, code: 200)
        logger.info("touch: AVRCP PLAY pressed and released (KEY_PLAYCD)")
    }

    /// A touch held for `hold`: PLAY pressed now, released after `hold` (the glasses repeat the
    /// pass-through press meanwhile, and bluetoothd keeps the key down: its input device sees
    /// one press and one release). Throws as ``touch()``.
    public func touch(holding hold: Duration) async throws {
        try keys().key(name: keysName, code: 200, values: [1])
        logger.info("touch: AVRCP PLAY pressed, held for \(hold)")
        try await Task.sleep(for: hold)
        try keys().key(name: keysName, code: 200, values: [0])
        logger.info("touch: AVRCP PLAY released")
    }

    /// The input devices the glasses' keys reach, while connected with AVRCP.
    private func keys() throws -> EmulatedInputDevices {
        guard isConnected else { throw EmulatorError.invalid("the glasses are not connected") }
        guard let inputDevices, glasses.offersMedia else { throw EmulatorError.invalid("the glasses' keys reach no input device (no AVRCP)") }
        return inputDevices
    }
}
