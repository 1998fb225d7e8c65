import Foundation
import Testing
import TestKit

extension CLISuites {
    /// Errors that name what was wrong and where: a broken or conflicting profiles folder, a
    /// sound server that does not answer (issue 12, class 6).
    @Suite("glasses-audio and glasses-emulator error messages", .serialized)
    struct ErrorMessageTests {
        let directory = TemporaryDirectory()
        let cli = Run.productPath("glasses-audio")
        let emulator = Run.productPath("glasses-emulator")
        static let shippedProfiles = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("profiles").path

        /// A copy of the shipped profiles, changed by `edit`.
        func profiles(_ edit: (String) throws -> Void) throws -> String {
            let folder = directory.path("profiles")
            try FileManager.default.copyItem(atPath: Self.shippedProfiles, toPath: folder)
            try edit(folder)
            return folder
        }

        @Test("the model's profile file is broken: the error names the file, the line and the YAML problem")
        func brokenProfile() throws {
            let folder = try profiles { folder in
                try "id: ray-ban-meta-gen-2\nname: [unclosed\n".write(toFile: folder + "/ray-ban-meta-gen-2.yaml", atomically: true, encoding: .utf8)
            }
            let result = try Run.command(cli, ["devices", "--profiles", folder], environment: ["GLASSES_AUDIO_BACKEND": "simulated"])
            #expect(result.status == 1)
            let error = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("error:") })
            #expect(error.contains("unknown glasses model 'ray-ban-meta-gen-2' in \(folder)"), "\(error)")
            #expect(error.contains("\(folder)/ray-ban-meta-gen-2.yaml:"), "\(error)")
            let fromEmulator = try Run.command(emulator, ["--profiles", folder, "--script", "quit"])
            #expect(fromEmulator.status == 2)
            #expect(fromEmulator.stderr.contains("\(folder)/ray-ban-meta-gen-2.yaml:"), "\(fromEmulator.stderr)")
        }

        @Test("two files claim the same model: neither is used, and both are named")
        func conflictingProfiles() throws {
            let folder = try profiles { folder in
                let original = try String(contentsOfFile: folder + "/ray-ban-meta-gen-2.yaml", encoding: .utf8)
                try original.replacingOccurrences(of: "name: Ray-Ban Meta (Gen 2)", with: "name: Someone's Edit")
                    .write(toFile: folder + "/aaa-copy.yaml", atomically: true, encoding: .utf8)
            }
            let result = try Run.command(cli, ["devices", "--json", "--profiles", folder], environment: ["GLASSES_AUDIO_BACKEND": "simulated"])
            #expect(result.status == 1, "ran as: \(result.stdout)")
            #expect(result.stderr.contains("glasses model 'ray-ban-meta-gen-2' is defined by more than one file in \(folder): \(folder)/aaa-copy.yaml, \(folder)/ray-ban-meta-gen-2.yaml"),
                    "\(result.stderr)")
        }

        @Test("a $GLASSES_AUDIOD_URL that is no address is an error that names it, not a crash")
        func badDaemonAddress() throws {
            for bad in ["http://[::1", "ftp://127.0.0.1:8742", "nonsense"] {
                let result = try Run.command(cli, ["status"], environment: ["GLASSES_AUDIOD_URL": bad, "GLASSES_AUDIOD_API_KEY": "key"])
                #expect(result.status == 1, "\(bad): \(result.stderr)")
                #expect(result.stderr.contains("$GLASSES_AUDIOD_URL '\(bad)' is not an http:// address"), "\(result.stderr)")
            }
        }

        @Test("a PulseAudio server that does not answer is named in the error, and where it came from")
        func deadServer() throws {
            let socket = directory.path("no-server")
            let result = try Run.command(cli, ["devices", "--backend", "pulse"], environment: ["PULSE_SERVER": "unix:\(socket)"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("connect to PulseAudio server 'unix:\(socket)' (from PULSE_SERVER) failed"), "\(result.stderr)")
        }
    }
}
