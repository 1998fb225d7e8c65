import Foundation

/// A private `bluealsa` (BlueALSA 4.0) on a test's bus, which it takes for the system bus: it
/// finds the emulator's fake BlueZ (and oFono, with `hfp-ofono`) there and offers its PCMs as
/// `org.bluealsa`. Stopped when released.
public final class BlueALSADaemon: @unchecked Sendable {
    public let directory = TemporaryDirectory()
    public let busAddress: String
    private var pid: pid_t?

    /// Whether `bluealsa` is installed (Debian's bluez-alsa-utils).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/bluealsa")
    }

    /// - Parameters:
    ///   - bus: the test's dbus-daemon.
    ///   - profiles: `-p` values (`a2dp-source`, `hfp-ofono`).
    ///   - arguments: more options (`--keep-alive=5`).
    ///   - preload: an `LD_PRELOAD` library (the libbluetooth shim for HFP without a kernel adapter).
    public init(bus: DBusDaemon, profiles: [String] = ["a2dp-source"], arguments: [String] = [], preload: String? = nil) throws {
        busAddress = bus.address
        var environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        if let preload { environment["LD_PRELOAD"] = preload }
        let pid = try Run.background(
            "bluealsa", profiles.flatMap { ["-p", $0] } + arguments, environment: environment, logPath: directory.path("bluealsa.log"))
        self.pid = pid
        var exited = false
        let up = Poll.until({
            ((try? bus.send(["--dest=org.freedesktop.DBus", "/", "org.freedesktop.DBus.NameHasOwner", "string:org.bluealsa"]))?
                .stdout.contains("boolean true")) == true
        }, giveUpIf: { exited = hasExited(pid); return exited })
        if up { return }
        if exited { self.pid = nil }
        let log = self.log
        stop()
        throw TestFailure("bluealsa did not take org.bluealsa: \(log.suffix(800))")
    }

    deinit { stop() }

    /// What bluealsa logged so far.
    public var log: String { (try? String(contentsOfFile: directory.path("bluealsa.log"), encoding: .utf8)) ?? "" }

    /// SIGTERM, then SIGKILL if it has not gone within about 2 s: a BlueALSA 4.0 whose SCO
    /// threads wedged (see docs/bluealsa.md) does not end on SIGTERM.
    public func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        if !Poll.until({ hasExited(pid) }, attempts: 40) { kill(pid, SIGKILL) }
        Run.wait(for: pid)
        self.pid = nil
    }

    /// The LD_PRELOAD library answering libbluetooth's adapter lookups (Sources/C/BlueALSAHCIShim),
    /// from the build folder; nil when it was not built.
    public static var hciShim: String? {
        let path = Run.productPath("libBlueALSAHCIShim.so")
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
