/// Who may do what with a characteristic, before its value is looked at: its flags, and for
/// the settings, quick actions, data and Wi-Fi, a phone that proved a spoken code. BlueZ checks
/// the flags (and the link's encryption) before asking us; this check holds for any caller.
public enum CompanionAccess {
    public static func read(_ characteristic: CompanionCharacteristic, device: String?, window: PairingWindow) throws(GATTError) {
        guard characteristic.canRead else { throw GATTError(.notPermitted, "\(characteristic.title) cannot be read") }
        try paired(characteristic, device: device, window: window)
    }

    public static func write(_ characteristic: CompanionCharacteristic, device: String?, window: PairingWindow) throws(GATTError) {
        guard characteristic.canWrite else { throw GATTError(.notPermitted, "\(characteristic.title) cannot be written") }
        try paired(characteristic, device: device, window: window)
    }

    public static func notify(_ characteristic: CompanionCharacteristic) throws(GATTError) {
        guard characteristic.canNotify else { throw GATTError(.notSupported, "\(characteristic.title) does not notify") }
    }

    private static func paired(_ characteristic: CompanionCharacteristic, device: String?, window: PairingWindow) throws(GATTError) {
        guard characteristic.needsPairedPhone else { return }
        guard let device, window.isPaired(device) else {
            throw GATTError(.notAuthorized, "\(characteristic.title) is for a paired phone: pair with the code the glasses speak first")
        }
    }

    /// The part of `value` a read at `offset` returns (a long read comes in pieces).
    public static func slice(_ value: [UInt8], offset: Int) throws(GATTError) -> [UInt8] {
        guard (0...value.count).contains(offset) else { throw GATTError(.invalidOffset, "offset \(offset) is past the value's \(value.count) bytes") }
        return Array(value[offset...])
    }
}
