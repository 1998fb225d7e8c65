import Foundation
import Testing
import TestKit

extension DaemonSuites {
    /// `glasses-audio status`, `settings get|set` and `monitor --daemon` against a real daemon,
    /// and without one.
    @Suite("glasses-audio with glasses-audiod", .serialized)
    struct DaemonCLITests {
        let cli = Run.productPath("glasses-audio")

        func run(_ arguments: [String], _ daemon: DaemonProcess) async throws -> Run.Output {
            try await offCooperativePool { [cli] in
                try Run.command(cli, arguments + ["--url", daemon.baseURL, "--data-dir", daemon.dataDirectory])
            }
        }

        @Test("status and settings get|set go through the daemon; a refused value shows the daemon's reason, exit 1")
        func statusAndSettings() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let status = try await run(["status"], daemon)
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains("active on the simulated backend"))
            #expect(status.stdout.contains("glasses: connected"))
            let set = try await run(["settings", "set", "name", "Alfred"], daemon)
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.stdout.contains(#""name":"Alfred""#))
            let sensitivity = try await run(["settings", "set", "sensitivity", "0.8"], daemon)
            #expect(sensitivity.stdout.contains(#""sensitivity":0.8"#), "\(sensitivity.stdout)\(sensitivity.stderr)")
            let refused = try await run(["settings", "set", "personality", "grumpy"], daemon)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("'personality' must be one of friendly, professional, witty, jarvis, casual"), "\(refused.stderr)")
            let notNumber = try await run(["settings", "set", "voice-rate", "fast"], daemon)
            #expect(notNumber.status == 2)
            for value in ["nan", "inf", "-inf"] {
                let notFinite = try await run(["settings", "set", "sensitivity", value], daemon)
                #expect(notFinite.status == 2, "\(value): \(notFinite.stderr)")
                #expect(notFinite.stderr.contains("sensitivity takes a finite number, not '\(value)'"), "\(notFinite.stderr)")
                #expect(!notFinite.stderr.contains("JSON"), "\(notFinite.stderr)")
            }
            let get = try await run(["settings", "get"], daemon)
            #expect(get.stdout.contains(#""name":"Alfred""#))
            _ = try await daemon.stop()
        }

        @Test("monitor --daemon prints the daemon's route change as it happens")
        func monitor() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let monitor = try Child(cli, ["monitor", "--daemon", "--count", "1", "--url", daemon.baseURL, "--data-dir", daemon.dataDirectory])
            #expect(try await offCooperativePool { monitor.waitForError("following glasses-audiod") }, "\(monitor.stderrSoFar)")
            _ = try await daemon.request("PUT", "/api/route/profile", body: #"{"profile": "voice"}"#)
            let output = try await offCooperativePool { monitor.finish(hangGuard: .seconds(20)) }
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("route.profile  device=C0:FF:EE:00:00:02  profile=voice"), "\(output.stdout)")
            _ = try await daemon.stop()
        }

        @Test("--url at another HTTP server (python's http.server): 'is not glasses-audiod', exit 1, none of its page printed")
        func notADaemon() async throws {
            let directory = TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: true)
            try "0123456789abcdef0123456789abcdef\n".write(toFile: directory.path("data/api_key"), atomically: true, encoding: .utf8)
            try "<html><body>SECRET PAGE</body></html>".write(toFile: directory.path("index.html"), atomically: true, encoding: .utf8)
            let server = try Child("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.url.path])
            defer { server.signal(SIGTERM); _ = server.finish(hangGuard: .seconds(5)) }
            try #require(try await offCooperativePool { server.waitForOutput("Serving HTTP on") }, "\(server.stderrSoFar)")
            let port = try #require(Int(server.stdoutSoFar.components(separatedBy: " port ").last?.prefix { $0.isNumber } ?? ""))
            for arguments in [["status"], ["status", "--json"], ["settings", "get"]] {
                let output = try await offCooperativePool { [cli] in
                    try Run.command(cli, arguments + ["--url", "http://127.0.0.1:\(port)", "--data-dir", directory.path("data")])
                }
                #expect(output.status == 1, "\(arguments): \(output.status)")
                #expect(output.stderr.contains("http://127.0.0.1:\(port) is not glasses-audiod (it answers as 'SimpleHTTP"), "\(output.stderr)")
                #expect(!output.stdout.contains("SECRET") && !output.stderr.contains("SECRET"))
            }
        }

        @Test("without a daemon, status, settings and monitor --daemon say so and exit 1")
        func noDaemon() async throws {
            let directory = TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: true)
            try "0123456789abcdef0123456789abcdef\n".write(toFile: directory.path("data/api_key"), atomically: true, encoding: .utf8)
            for arguments in [["status"], ["settings", "get"], ["monitor", "--daemon"]] {
                let output = try await offCooperativePool { [cli] in
                    try Run.command(cli, arguments + ["--url", "http://127.0.0.1:9", "--data-dir", directory.path("data")])
                }
                #expect(output.status == 1, "\(arguments): \(output.status)")
                #expect(output.stderr.contains("no glasses-audiod answers at http://127.0.0.1:9"), "\(arguments): \(output.stderr)")
            }
            let noKey = try await offCooperativePool { [cli] in try Run.command(cli, ["status", "--data-dir", directory.path("nothing")]) }
            #expect(noKey.status == 1)
            #expect(noKey.stderr.contains("no API key"))
        }
    }
}
