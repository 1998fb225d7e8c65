import Foundation
import Testing
import TestKit

extension CLISuites {
    /// `make install-built PREFIX=…` puts the executables and their data where a Debian package
    /// would, and the installed programs work from any folder, also through a symlink on PATH
    /// (issue 12, class 3).
    @Suite("installed glasses-audio and glasses-emulator", .serialized)
    struct InstalledTests {
        let directory = TemporaryDirectory()
        static let checkout = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

        /// Installs into a fresh prefix; returns the prefix.
        func install() throws -> String {
            let prefix = directory.path("prefix")
            let built = URL(fileURLWithPath: Run.productPath("glasses-audio")).deletingLastPathComponent().path
            let result = try Run.command("make", ["-C", Self.checkout, "install-built", "PREFIX=\(prefix)", "BINDIR=\(built)"])
            #expect(result.status == 0, "\(result.stderr)")
            return prefix
        }

        /// Runs `command` with `sh` in `folder`.
        func run(in folder: String, _ command: String, environment: [String: String] = [:]) throws -> Run.Output {
            try Run.command("sh", ["-c", "cd '\(folder)' && \(command)"], environment: environment)
        }

        @Test("the Debian layout: bin/, share/glasses-audio/profiles and samples")
        func layout() throws {
            let prefix = try install()
            for path in ["bin/glasses-audio", "bin/glasses-emulator", "share/glasses-audio/profiles/ray-ban-meta-gen-2.yaml",
                         "share/glasses-audio/samples/hey-glasses-weather.wav"] {
                #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(path)"), "\(path) missing")
            }
        }

        @Test("from an unrelated folder, via PATH and a symlink: profiles and the sample mic are found")
        func fromAnywhere() throws {
            let prefix = try install()
            let elsewhere = directory.path("elsewhere")
            let links = directory.path("links")
            for folder in [elsewhere, links] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try FileManager.default.createSymbolicLink(atPath: links + "/glasses-audio", withDestinationPath: prefix + "/bin/glasses-audio")
            let environment = ["PATH": "\(links):\(prefix)/bin:/usr/bin:/bin", "GLASSES_AUDIO_BACKEND": "simulated", "GLASSES_AUDIO_PROFILES": ""]
            let devices = try run(in: elsewhere, "glasses-audio devices", environment: environment)
            #expect(devices.status == 0, "\(devices.stderr)")
            #expect(devices.stdout.contains("Ray-Ban Meta (Gen 2)"))
            let record = try run(in: elsewhere, "glasses-audio record --seconds 1 --sim-speed 20 --json out.wav", environment: environment)
            #expect(record.status == 0, "\(record.stderr)")
            #expect(!record.stderr.contains("warning"), "\(record.stderr)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(record.stdout.utf8)) as? [String: Any])
            let level = try #require(result["level"] as? [String: Double])
            #expect((level["rms_dbfs"] ?? -120) > -60, "the simulated mic was silent: \(record.stdout)")
            let emulator = try run(in: elsewhere, "glasses-emulator --profile nope", environment: environment)
            #expect(emulator.status == 2)
            #expect(emulator.stderr.contains("\(prefix)/share/glasses-audio/profiles (known: bose-frames"), "\(emulator.stderr)")
        }
    }
}
