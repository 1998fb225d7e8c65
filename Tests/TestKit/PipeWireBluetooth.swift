import Foundation

extension PipeWireDaemon {
    /// Whether PipeWire and its Bluetooth plugin (Debian: libspa-0.2-bluetooth, in the PipeWire
    /// opt-in of scripts/bootstrap) are installed, so the emulated glasses can meet PipeWire.
    public static var hasBluetooth: Bool {
        SoundServerKind.pipewire.isInstalled
            && ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"].contains {
                FileManager.default.fileExists(atPath: "\($0)/spa-0.2/bluez5/libspa-bluez5.so")
            }
    }
}
