import Testing
import TestKit

/// Says whether the PipeWire variants of the sound-server suites ran on this machine.
@Suite("PipeWire availability", .oneAtATime)
struct PipeWireAvailabilityTests {
    @Test(
        "PipeWire 0.3 or newer is installed, so the PipeWire variants run",
        .enabled(if: SoundServerKind.pipewire.isInstalled,
                 "PipeWire is not installed, so its variants are skipped; GLASSES_AUDIO_PIPEWIRE=1 scripts/bootstrap installs it (CI does)"))
    func installed() throws {
        let version = try Run.command("pipewire", ["--version"]).stdout
        let numbers = version.split(whereSeparator: { !$0.isNumber && $0 != "." }).first { $0.contains(".") }
        let parts = try #require(numbers).split(separator: ".").compactMap { Int($0) }
        #expect(parts.count >= 2 && (parts[0] > 0 || parts[1] >= 3), "pipewire --version said \(version)")
    }
}
