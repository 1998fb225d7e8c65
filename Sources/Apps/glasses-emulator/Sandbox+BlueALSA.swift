import Foundation

/// BlueALSA instead of a sound server in the sandbox, for the ALSA backend: `bluealsa` with
/// A2DP and hands-free through the emulator's oFono, on our bus as its system bus, with the
/// libbluetooth shim preloaded (BlueALSA asks the kernel for the adapter; there is none here).
extension Sandbox {
    /// Starts bluealsa; returns once it has taken org.bluealsa.
    func startBlueALSA() throws {
        let shim = Self.hciShimPath()
        guard let shim else {
            throw SandboxError("libBlueALSAHCIShim.so is neither next to glasses-emulator nor in ../lib/glasses-audio; build it with swift build (a product of this package) or make install")
        }
        try spawn(
            "bluealsa", ["-p", "a2dp-source", "-p", "hfp-ofono", "--keep-alive=60"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddress, "LD_PRELOAD": shim], log: "bluealsa.log")
        try waitUntil("bluealsa to take org.bluealsa") {
            ((try? String(contentsOfFile: "\(self.directory)/bluealsa.log", encoding: .utf8)) ?? "").contains("Acquired D-Bus service name")
        }
    }

    /// The shim: beside the executable (SwiftPM's build folder), or where `make install` puts it
    /// (`../lib/glasses-audio/`).
    static func hciShimPath() -> String? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let folder = executable.deletingLastPathComponent()
        return [
            folder.appendingPathComponent("libBlueALSAHCIShim.so").path,
            folder.deletingLastPathComponent().appendingPathComponent("lib/glasses-audio/libBlueALSAHCIShim.so").path,
        ].first { FileManager.default.fileExists(atPath: $0) }
    }
}
