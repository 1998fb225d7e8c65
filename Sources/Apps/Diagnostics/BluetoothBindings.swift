internal import CBluetooth
import Foundation

/// libbluetooth's HCI calls: the one file that sees the C library.
extension HCIInventory {
    /// Asks the kernel for its controllers (`hci_devinfo` on each of `HCI_MAX_DEV`).
    public static func read() -> HCIInventory {
        // An HCI socket is what every HCI call opens first; when the kernel has no Bluetooth
        // the address family itself is refused, and that is the plain answer.
        let probe = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        if probe < 0 {
            let code = errno
            let reason = String(cString: strerror(code))
            if code == EAFNOSUPPORT {
                return HCIInventory(controllers: [], unavailable: "this kernel has no Bluetooth (socket(AF_BLUETOOTH): \(reason))")
            }
            return HCIInventory(controllers: [], unavailable: "cannot open an HCI socket: \(reason)")
        }
        close(probe)
        var controllers: [Controller] = []
        for id in 0..<Int32(HCI_MAX_DEV) {
            var info = hci_dev_info()
            guard hci_devinfo(id, &info) == 0 else { continue }
            controllers.append(controller(info))
        }
        return HCIInventory(controllers: controllers)
    }

    private static func controller(_ info: hci_dev_info) -> Controller {
        var info = info
        let name = withUnsafeBytes(of: &info.name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        var text = [CChar](repeating: 0, count: 18)
        _ = ba2str(&info.bdaddr, &text)
        let features = withUnsafeBytes(of: &info.features) { Array($0) }
        return Controller(
            name: name, address: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), isUp: info.flags & (1 << UInt32(HCI_UP)) != 0,
            supportsESCO: features[3] & UInt8(LMP_ESCO) != 0, supportsTransparentSCO: features[2] & UInt8(LMP_TRSP_SCO) != 0)
    }
}
