import Foundation
import Testing
import TestKit

extension DaemonSuites {
    /// The daemon's life as a process: settings across a restart and a `kill -9` mid-write,
    /// server-sent events with resume, a clean SIGTERM, configuration errors.
    @Suite("glasses-audiod lifecycle", .serialized)
    struct DaemonLifecycleTests {
        @Test("settings and the API key survive a SIGTERM restart; the daemon exits 0")
        func restart() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let first = try await DaemonProcess.start(dataDirectory: data)
            _ = try await first.request("PUT", "/api/settings/name", body: #"{"name": "Friday"}"#)
            _ = try await first.request("PUT", "/api/settings/voice", body: #"{"rate": 222}"#)
            let stopped = try await first.stop(SIGTERM)
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("stopped"))
            let second = try await DaemonProcess.start(dataDirectory: data)
            #expect(second.key == first.key)
            let settings = try await second.request("GET", "/api/settings")
            #expect(settings.json["name"] as? String == "Friday")
            #expect((settings.json["voice"] as? [String: Any])?["rate"] as? Int == 222)
            _ = try await second.stop()
        }

        @Test("kill -9 during a stream of writes: after a restart the name is one that was written, never a broken value")
        func killDuringWrites() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let first = try await DaemonProcess.start(dataDirectory: data)
            let written = (0..<400).map { "Name \($0)" }
            let writer = Task {
                var acknowledged: [String] = []
                for name in written {
                    guard let reply = try? await first.request("PUT", "/api/settings/name", body: #"{"name": "\#(name)"}"#), reply.status == 200
                    else { break }
                    acknowledged.append(name)
                }
                return acknowledged
            }
            // Kill once some writes were acknowledged, while more are under way.
            for _ in 0..<400 {
                let name = try? await first.request("GET", "/api/settings").json["name"] as? String
                if let name, name.hasPrefix("Name "), Int(name.dropFirst(5)) ?? 0 >= 20 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            let killed = try await first.stop(SIGKILL)
            // Anything else means it died before the kill: its stderr holds the crash's backtrace.
            #expect(killed.status == 128 + SIGKILL, "the daemon ended by itself:\n\(killed.stderr.suffix(6000))")
            let acknowledged = await writer.value
            #expect(acknowledged.count >= 20)
            #expect(acknowledged.count < written.count, "the kill came after every write")
            let second = try await DaemonProcess.start(dataDirectory: data)
            let settings = try await second.request("GET", "/api/settings")
            #expect(settings.status == 200)
            let name = try #require(settings.json["name"] as? String)
            let index = try #require(written.firstIndex(of: name), "'\(name)' was never written")
            #expect(index >= acknowledged.count - 1, "an acknowledged write was lost: \(name) after \(acknowledged.last ?? "-")")
            #expect(index <= acknowledged.count, "\(name) is past the write under way")
            _ = try await second.stop()
        }

        @Test("/api/events: a route change arrives with an id; Last-Event-ID gets what was missed; SIGTERM ends the stream")
        func serverSentEvents() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let follower = try daemon.followEvents()
            #expect(try await offCooperativePool { follower.waitForOutput(": connected") })
            _ = try await daemon.request("PUT", "/api/route/profile", body: #"{"profile": "voice"}"#)
            #expect(try await offCooperativePool { follower.waitForOutput("event: route.changed") }, "\(follower.stdoutSoFar)")
            #expect(follower.stdoutSoFar.contains(#""reason":"profileChanged""#), "\(follower.stdoutSoFar)")
            let ids = Self.ids(follower.stdoutSoFar)
            let last = try #require(ids.last)
            follower.signal(SIGTERM)
            _ = follower.finish(hangGuard: .seconds(5))

            _ = try await daemon.request("PUT", "/api/settings/name", body: #"{"name": "Missed"}"#)  // while nobody follows
            let resumed = try daemon.followEvents(lastEventID: last)
            #expect(try await offCooperativePool { resumed.waitForOutput("event: settings.changed") }, "\(resumed.stdoutSoFar)")
            let replayed = Self.ids(resumed.stdoutSoFar)
            #expect(replayed.first == last + 1, "resumed at \(replayed.first ?? -1), expected \(last + 1)")
            #expect(replayed == replayed.sorted() && Set(replayed).count == replayed.count)
            // One route change, one event: not again as the assistant's.
            #expect(!(follower.stdoutSoFar + resumed.stdoutSoFar).contains("event: assistant.routeChanged"), "\(resumed.stdoutSoFar)")

            let bad = try await daemon.request("GET", "/api/events", headers: ["Last-Event-ID": "yesterday"])
            #expect(bad.status == 400)
            #expect(bad.error.contains("Last-Event-ID"))

            let output = try await daemon.stop(SIGTERM)
            #expect(output.status == 0, "\(output.stderr)")
            let ended = try await offCooperativePool { resumed.finish(hangGuard: .seconds(10)) }
            #expect(ended.status == 0, "the event stream was still open after the daemon stopped")
        }

        @Test("under systemd: READY once it listens, WATCHDOG at half the timeout, STOPPING on SIGTERM; journald priorities")
        func systemdNotify() async throws {
            let directory = TemporaryDirectory()
            let socket = try NotifySocket(path: directory.path("notify"))
            defer { socket.close() }
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"),
                environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000", "JOURNAL_STREAM": "8:1234"])
            #expect(try await offCooperativePool { socket.waitFor("READY=1") }, "\(socket.received)")
            #expect(socket.received.first { $0.contains("READY=1") }?.contains("STATUS=listening on 127.0.0.1:\(daemon.port)") == true)
            #expect(try await offCooperativePool { Poll.until { socket.received.filter { $0 == "WATCHDOG=1" }.count >= 2 } }, "\(socket.received)")
            #expect(!socket.received.contains { $0.contains("STOPPING=1") })
            let output = try await daemon.stop(SIGTERM)
            #expect(output.status == 0)
            #expect(socket.received.contains { $0.contains("STOPPING=1") }, "\(socket.received)")
            #expect(output.stderr.contains("<6>glasses-audiod: stopped"), "\(output.stderr.suffix(500))")
        }

        static func ids(_ text: String) -> [Int64] {
            text.split(separator: "\n").compactMap { line in line.hasPrefix("id: ") ? Int64(line.dropFirst(4)) : nil }
        }

        @Test("a bad flag, environment variable or file setting exits 2 naming the key and the allowed values")
        func configurationErrors() async throws {
            let directory = TemporaryDirectory()
            let binary = DaemonProcess.binary
            let flag = try await offCooperativePool { try Run.command(binary, ["--http-port", "99999", "--data-dir", directory.path("a")]) }
            #expect(flag.status == 2)
            #expect(flag.stderr.contains("--http-port: '99999' is not allowed; allowed: a whole number in 0...65535"), "\(flag.stderr)")
            let env = try await offCooperativePool {
                try Run.command(binary, ["--data-dir", directory.path("b")], environment: ["GLASSES_AUDIOD_BACKEND": "jack"])
            }
            #expect(env.status == 2)
            #expect(env.stderr.contains("GLASSES_AUDIOD_BACKEND: 'jack' is not allowed; allowed: one of simulated, pulse, alsa, auto"), "\(env.stderr)")
            let file = directory.path("glasses-audiod.yaml")
            try "http-port: 8742\nmic-mode: sometimes\n".write(toFile: file, atomically: true, encoding: .utf8)
            let yaml = try await offCooperativePool { try Run.command(binary, ["--config", file]) }
            #expect(yaml.status == 2)
            #expect(yaml.stderr.contains("mic-mode in \(file): 'sometimes' is not allowed; allowed: one of loop, once"), "\(yaml.stderr)")
            try "htp-port: 1\n".write(toFile: file, atomically: true, encoding: .utf8)
            let unknown = try await offCooperativePool { try Run.command(binary, ["--config", file]) }
            #expect(unknown.status == 2)
            #expect(unknown.stderr.contains("htp-port in \(file)") && unknown.stderr.contains("http-port, wyoming-port"), "\(unknown.stderr)")
        }
    }
}
