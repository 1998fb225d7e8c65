import Foundation

/// BlueALSA instead of a sound server in the sandbox, for the ALSA backend: `bluealsa` with
/// A2DP and hands-free through the emulator's oFono, on our bus as its system bus, with the
/// libbluetooth shim preloaded (BlueALSA asks the kernel for the adapter; there is none here).
extension Sandbox {
    /// Starts bluealsa; returns once it has taken org.bluealsa.
    func startBlueALSA() throws {
        let shim = Self.hciShimPath()
        guard let shim else {
            throw SandboxError("libBlueALSAHCIShim.so is not next to glasses-emulator; build it with swift build (it is a product of this package)")
        }
        children.append(try spawn(
            "bluealsa", ["-p", "a2dp-source", "-p", "hfp-ofono", "--keep-alive=60"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddress, "LD_PRELOAD": shim], log: "bluealsa.log"))
        try waitUntil("bluealsa to take org.bluealsa") {
            ((try? String(contentsOfFile: "\(self.directory)/bluealsa.log", encoding: .utf8)) ?? "").contains("Acquired D-Bus service name")
        }
    }

    /// The shim SwiftPM builds beside the executables.
    static func hciShimPath() -> String? {
        guard let executable = Bundle.main.executableURL else { return nil }
        let path = executable.deletingLastPathComponent().appendingPathComponent("libBlueALSAHCIShim.so").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
