import Foundation
import Store
import Testing
import TestKit

extension DaemonSuites {
    /// The second hostile sweep (issue 28) on a real glasses-audiod: its data directory, its
    /// settings under concurrent writes, a second daemon, an emptied database, the Wyoming port.
    @Suite("glasses-audiod under hostile input", .serialized)
    struct DaemonHardeningTests {
        static func mode(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }

        @Test("a data directory open to all (0777) with a 0644 database is tightened to 0700/0600, and said so")
        func loosePermissions() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let first = try await DaemonProcess.start(dataDirectory: data)
            _ = try await first.request("PUT", "/api/settings/name", body: #"{"name": "Kept"}"#)
            _ = try await first.stop()
            #expect(chmod(data, 0o777) == 0 && chmod(data + "/glasses-audiod.sqlite", 0o644) == 0)
            let second = try await DaemonProcess.start(dataDirectory: data)
            #expect(Self.mode(data) == 0o700)
            #expect(Self.mode(data + "/glasses-audiod.sqlite") == 0o600)
            #expect(second.child.stderrSoFar.contains("was open to others (mode 0777): tightened to 0700"), "\(second.child.stderrSoFar)")
            #expect(second.child.stderrSoFar.contains("was readable by others (mode 0644): tightened to 0600"))
            #expect(try await second.request("GET", "/api/settings").json["name"] as? String == "Kept")
            _ = try await second.stop()
        }

        @Test("a second daemon on the same data directory is refused, naming the first one's PID; the first serves on")
        func secondDaemonRefused() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let first = try await DaemonProcess.start(dataDirectory: data)
            let second = try await offCooperativePool {
                try Run.command(DaemonProcess.binary, ["--backend", "simulated", "--data-dir", data, "--http-port", "0", "--wyoming-port", "0", "--listen", "false"])
            }
            #expect(second.status == 1, "\(second.stderr)")
            #expect(second.stderr.contains("another glasses-audiod (process \(first.child.pid)) is using the data directory \(data)"), "\(second.stderr)")
            #expect(try await first.request("GET", "/api/settings").status == 200)
            _ = try await first.stop()
            let third = try await DaemonProcess.start(dataDirectory: data)  // the lock went with the first
            _ = try await third.stop()
        }

        @Test("a database truncated to 0 bytes is moved aside with an error in the log, never silently reset")
        func emptiedDatabase() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let first = try await DaemonProcess.start(dataDirectory: data)
            _ = try await first.request("PUT", "/api/settings/name", body: #"{"name": "Before"}"#)
            _ = try await first.stop()
            #expect(truncate(data + "/glasses-audiod.sqlite", 0) == 0)
            let second = try await DaemonProcess.start(dataDirectory: data)
            let log = second.child.stderrSoFar
            #expect(log.contains("was empty (0 bytes: truncated?): moved aside to \(data)/glasses-audiod.sqlite.empty-"), "\(log)")
            let aside = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasPrefix("glasses-audiod.sqlite.empty-") }
            #expect(aside.count == 1, "\(aside)")
            _ = try await second.stop()
        }

        @Test("setting values with control or invisible characters are refused naming the character")
        func controlCharacters() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            for (body, code) in [
                (#"{"name": "a\u001b[31mred"}"#, "U+001B"), (#"{"name": "bell\u0007"}"#, "U+0007"), (#"{"name": "evil\u202egnp"}"#, "U+202E"),
                (#"{"name": "zero\u200bwidth"}"#, "U+200B"), (#"{"name": "del\u007f"}"#, "U+007F"),
            ] {
                let reply = try await daemon.request("PUT", "/api/settings/name", body: body)
                #expect(reply.status == 400, "\(body): \(reply.status)")
                #expect(reply.error.contains("invisible or control character (\(code))"), "\(reply.body)")
            }
            for keyword in [#"مرحبا يا نظارة"#, "hey 👓", "hey\u{0301}\u{0301}\u{0301} glasses", "\u{1F1FA}\u{1F1F8} go"] {
                let reply = try await daemon.request("PUT", "/api/settings/wake-word", body: #"{"keyword": "\#(keyword)"}"#)
                #expect(reply.status == 400, "\(keyword): \(reply.status) \(reply.body)")
                #expect(reply.error.contains("Latin letters"), "\(reply.body)")
            }
            // Apostrophes and spaces only: no word to speak.
            let unspeakable = try await daemon.request("PUT", "/api/settings/wake-word", body: #"{"keyword": "'' ''"}"#)
            #expect(unspeakable.status == 400, "\(unspeakable.body)")
            #expect(unspeakable.error.contains("Latin letters"), "\(unspeakable.body)")
            let accented = try await daemon.request("PUT", "/api/settings/name", body: #"{"name": "Zoë the Assistant"}"#)
            #expect(accented.status == 200, "\(accented.body)")
            let settings = try await daemon.request("GET", "/api/settings")
            #expect(settings.json["name"] as? String == "Zoë the Assistant")
            #expect((settings.json["wake_word"] as? [String: Any])?["keyword"] as? String == "hey glasses")
            _ = try await daemon.stop()
        }

        @Test("concurrent PUTs to different settings: what the daemon serves equals what it stored, every round")
        func concurrentPuts() async throws {
            let directory = TemporaryDirectory()
            let data = directory.path("data")
            let daemon = try await DaemonProcess.start(dataDirectory: data)
            let store = try Store(path: data + "/glasses-audiod.sqlite")
            let personalities = ["friendly", "professional", "witty", "jarvis", "casual"]
            for round in 0..<30 {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask { try await daemon.request("PUT", "/api/settings/name", body: #"{"name": "Round \#(round)"}"#).status }
                    group.addTask {
                        try await daemon.request("PUT", "/api/settings/voice", body: #"{"rate": \#(100 + round), "volume": 0.5}"#).status
                    }
                    group.addTask {
                        try await daemon.request("PUT", "/api/settings/personality", body: #"{"personality": "\#(personalities[round % 5])"}"#).status
                    }
                    group.addTask {
                        try await daemon.request("PUT", "/api/settings/wake-word", body: #"{"keyword": "hey glasses", "sensitivity": 0.\#(round % 9 + 1)}"#).status
                    }
                    for try await status in group { #expect(status == 200) }
                }
                let served = try await daemon.request("GET", "/api/settings")
                let stored = try store.settings()
                #expect(served.json["name"] as? String == stored.name, "round \(round)")
                #expect((served.json["voice"] as? [String: Any])?["rate"] as? Int == stored.voice.rate, "round \(round)")
                #expect(served.json["personality"] as? String == stored.personality, "round \(round)")
                #expect((served.json["wake_word"] as? [String: Any])?["sensitivity"] as? Double == stored.wakeWord.sensitivity, "round \(round)")
                #expect(stored.name == "Round \(round)" && stored.voice.rate == 100 + round)
            }
            _ = try await daemon.stop()
        }

        @Test("Wyoming on every interface without an allow-list is warned about; with --wyoming-allow it is not")
        func wyomingExposure() async throws {
            let directory = TemporaryDirectory()
            let open = try await DaemonProcess.start(dataDirectory: directory.path("open"), arguments: ["--wyoming-bind", "0.0.0.0"])
            #expect(open.child.stderrSoFar.contains("the Wyoming port has no authentication and listens on 0.0.0.0:"), "\(open.child.stderrSoFar)")
            #expect(open.child.stderrSoFar.contains("--wyoming-allow"))
            _ = try await open.stop()
            let allowed = try await DaemonProcess.start(
                dataDirectory: directory.path("allowed"), arguments: ["--wyoming-bind", "0.0.0.0", "--wyoming-allow", "192.168.1.20,127.0.0.1"])
            #expect(!allowed.child.stderrSoFar.contains("has no authentication"), "\(allowed.child.stderrSoFar)")
            #expect(allowed.child.stderrSoFar.contains("wyoming: only 192.168.1.20,127.0.0.1 may connect"))
            _ = try await allowed.stop()
            let bad = try await offCooperativePool {
                try Run.command(DaemonProcess.binary, ["--backend", "simulated", "--data-dir", directory.path("bad"), "--wyoming-allow", "everyone"])
            }
            #expect(bad.status == 2 && bad.stderr.contains("--wyoming-allow: 'everyone' is not allowed"), "\(bad.stderr)")
        }

        @Test("SIGQUIT stops the daemon like SIGTERM: exit 0, no crash report")
        func sigquit() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let output = try await daemon.stop(SIGQUIT)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stderr.contains("stopped"))
            #expect(!output.stderr.contains("crashed"), "\(output.stderr)")
        }

        @Test("a taken --http-port, --wyoming-port or --esphome-port: one line naming the address and what to do, exit 1")
        func takenPorts() async throws {
            let directory = TemporaryDirectory()
            let first = try await DaemonProcess.start(dataDirectory: directory.path("first"))
            let wyomingPort = try #require(Int(first.child.stderrSoFar.components(separatedBy: "wyoming: listening on 127.0.0.1:").last?.prefix { $0.isNumber } ?? ""))
            let esphomePort = try #require(Int(first.child.stderrSoFar.components(separatedBy: "esphome: listening on 127.0.0.1:").last?.prefix { $0.isNumber } ?? ""))
            for (flag, port, what) in [
                ("--http-port", first.port, "the HTTP API"), ("--wyoming-port", wyomingPort, "the Wyoming server"),
                ("--esphome-port", esphomePort, "the ESPHome API server"),
            ] {
                var choice = ["--http-port", "0", "--wyoming-port", "0", "--esphome-port", "0"]
                choice[choice.firstIndex(of: flag)! + 1] = "\(port)"
                let ports = choice
                let second = try await offCooperativePool {
                    try Run.command(DaemonProcess.binary, ["--backend", "simulated", "--data-dir", directory.path("second"), "--listen", "false"] + ports)
                }
                #expect(second.status == 1, "\(second.stderr)")
                #expect(second.stderr.contains("\(what) cannot listen on 127.0.0.1:\(port): the address is already in use"), "\(second.stderr)")
                #expect(second.stderr.contains("another port with \(flag)"))
                #expect(!second.stderr.contains("bind(descriptor"), "\(second.stderr)")
            }
            _ = try await first.stop()
        }

        /// The whole daemon with its data directory on a real tmpfs that is full: the command's
        /// audio and its history entry cannot be kept, which is logged; the reply still plays,
        /// the API still answers, and the daemon stops cleanly (it crashed in libopusenc's
        /// `fclose` on a full disk, 3 of 3).
        @Test("on a full disk the daemon logs what it could not keep and goes on serving",
              .enabled(if: SmallTmpfs.canMount, "mounting a tmpfs needs root"))
        func fullDisk() async throws {
            let disk = try SmallTmpfs(megabytes: 4)
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
            let daemon = try await DaemonProcess.start(
                dataDirectory: disk.path("data"), listen: false,
                arguments: ["--assistant-backend", "local", "--mic", root + "/samples/hey-glasses-what-time.wav", "--mic-mode", "once"])
            try disk.fill()
            let listen = try await daemon.request("POST", "/api/listen")
            #expect(listen.status == 202, "\(listen.body)")
            let notKept = try await offCooperativePool { daemon.child.waitForError("the command's audio could not be kept") }
            let released = try await offCooperativePool { daemon.child.waitForError("routeReleased") }
            let status = try await daemon.request("GET", "/api/status")
            let stopped = try await daemon.stop()
            #expect(notKept, "\(stopped.stderr)")
            #expect(released, "the reply did not play to its end: \(stopped.stderr)")
            #expect(status.status == 200, "\(status.body)")
            #expect(stopped.status == 0, "\(stopped.stderr)")
        }

        /// hummingbird-websocket answers every refused upgrade with a bare 400: the daemon
        /// accepts it and closes at once with the reason, which a WebSocket client shows.
        @Test("a refused WebSocket upgrade says why in its close frame", arguments: [
            ("/api/assistant", false, 1008, "401 the X-API-Key header is missing"),
            ("/api/assistant?format=mp3", true, 1003, "400 format 'mp3' is not accepted; use one of"),
            ("/api/status", true, 1003, "404 /api/status is no WebSocket (the WebSocket is /api/assistant)"),
            ("/api/nowhere", true, 1003, "404 /api/nowhere is no WebSocket"),
        ])
        func refusedUpgradeSaysWhy(path: String, withKey: Bool, code: Int, reason: String) async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
            let output = try await offCooperativePool {
                try Run.command(root + "/scripts/wyoming-peer", ["ws_refusal.py", "ws://127.0.0.1:\(daemon.port)\(path)"] + (withKey ? [daemon.key] : []))
            }
            _ = try await daemon.stop()
            try #require(output.status == 0, "\(output.stderr)")
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
            #expect(answer["code"] as? Int == code, "\(answer)")
            #expect((answer["reason"] as? String)?.hasPrefix(reason) == true, "\(answer)")
        }

        @Test("GET /api/assistant without a WebSocket upgrade: 426 with a sentence saying what the route is")
        func webSocketRouteWithoutUpgrade() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let plain = try await daemon.request("GET", "/api/assistant")
            #expect(plain.status == 426, "\(plain.status) \(plain.body)")
            #expect(plain.error.contains("/api/assistant is a WebSocket: connect with a WebSocket client"), "\(plain.body)")
            _ = try await daemon.stop()
        }
    }
}
