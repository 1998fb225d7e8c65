import Assistant
import Daemon
import Foundation
import Routing
import Testing
import TestKit

extension DaemonSuites {
    /// Every route of the HTTP API on a real glasses-audiod (simulated glasses), with valid and
    /// invalid bodies and without a key.
    @Suite("glasses-audiod HTTP API", .serialized)
    struct DaemonHTTPTests {
        /// Every route that needs the key, with a body that would be valid.
        static let keyedRoutes: [(String, String, String?)] = [
            ("GET", "/api/status", nil), ("GET", "/api/settings", nil),
            ("PUT", "/api/settings/name", #"{"name": "Jarvis"}"#), ("PUT", "/api/settings/personality", #"{"personality": "witty"}"#),
            ("PUT", "/api/settings/wake-word", #"{"keyword": "hey glasses", "sensitivity": 0.5}"#),
            ("PUT", "/api/settings/voice", #"{"engine": "espeak", "rate": 160, "volume": 0.7}"#),
            ("POST", "/api/control/sleep", nil), ("POST", "/api/control/wake", nil),
            ("GET", "/api/conversation", nil), ("DELETE", "/api/conversation", nil),
            ("GET", "/api/devices", nil), ("GET", "/api/route", nil), ("PUT", "/api/route/profile", #"{"profile": "media"}"#),
            ("POST", "/api/speak", #"{"text": "hello"}"#), ("POST", "/api/listen", nil),
            ("GET", "/api/events", nil), ("GET", "/metrics", nil), ("GET", "/api/openapi.yaml", nil),
        ]

        @Test("connection/test answers without a key; every other route is 401 without a key or with a wrong one")
        func keys() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let open = try await daemon.request("GET", "/api/connection/test", key: .missing)
            #expect(open.status == 200)
            #expect(open.json["status"] as? String == "ok")
            #expect(open.json["message"] as? String == "Connection successful")
            for (method, path, body) in Self.keyedRoutes {
                let none = try await daemon.request(method, path, body: body, key: .missing)
                #expect(none.status == 401, "\(method) \(path) without a key: \(none.status) \(none.body)")
                #expect(none.error.contains("X-API-Key"), "\(none.body)")
                let wrong = try await daemon.request(method, path, body: body, key: .value(String(repeating: "0", count: 64)))
                #expect(wrong.status == 401, "\(method) \(path) with a wrong key: \(wrong.status)")
                let short = try await daemon.request(method, path, body: body, key: .value(String(daemon.key.prefix(10))))
                #expect(short.status == 401, "\(method) \(path) with a prefix of the key: \(short.status)")
            }
            for extra in [1, 255, 256, 257, 512] {
                let padded = try await daemon.request("GET", "/api/settings", key: .value(daemon.key + String(repeating: "A", count: extra)))
                #expect(padded.status == 401, "the key followed by \(extra) characters: \(padded.status)")
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: daemon.dataDirectory + "/api_key")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(daemon.key.count == 64)
            _ = try await daemon.stop()
        }

        @Test("settings: seed 001 shapes, each PUT stored and shown; bad bodies are 400 naming the field and the allowed values")
        func settings() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let initial = try await daemon.request("GET", "/api/settings")
            #expect(initial.status == 200)
            #expect(initial.json["name"] as? String == "Glasses")
            #expect((initial.json["wake_word"] as? [String: Any])?["keyword"] as? String == "hey glasses")
            #expect((initial.json["voice"] as? [String: Any])?["rate"] as? Int == 175)

            let name = try await daemon.request("PUT", "/api/settings/name", body: #"{"name": "Alfred"}"#)
            #expect(name.status == 200)
            #expect(name.json["success"] as? Bool == true && name.json["name"] as? String == "Alfred")
            let personality = try await daemon.request("PUT", "/api/settings/personality", body: #"{"personality": "witty"}"#)
            #expect(personality.json["personality"] as? String == "witty")
            let wake = try await daemon.request("PUT", "/api/settings/wake-word", body: #"{"keyword": "Hey Glasses", "sensitivity": 0.7}"#)
            #expect(wake.status == 200 && wake.json["success"] as? Bool == true)
            let voice = try await daemon.request("PUT", "/api/settings/voice", body: #"{"rate": 200, "volume": 0.5}"#)
            #expect(voice.status == 200)
            let after = try await daemon.request("GET", "/api/settings")
            #expect(after.json["name"] as? String == "Alfred")
            #expect(after.json["personality"] as? String == "witty")
            #expect((after.json["wake_word"] as? [String: Any])?["sensitivity"] as? Double == 0.7)
            #expect((after.json["wake_word"] as? [String: Any])?["keyword"] as? String == "hey glasses")
            #expect((after.json["voice"] as? [String: Any])?["rate"] as? Int == 200)
            #expect((after.json["voice"] as? [String: Any])?["engine"] as? String == "espeak")
            let status = try await daemon.request("GET", "/api/status")
            #expect(status.json["name"] as? String == "Alfred" && status.json["personality"] as? String == "witty")

            let bad: [(String, String, String)] = [
                ("/api/settings/name", #"{"name": ""}"#, "'name' must be 1...40"),
                ("/api/settings/name", #"{"nome": "x"}"#, "the field 'name' is missing"),
                ("/api/settings/name", #"{"name": 5}"#, "the field 'name' has the wrong type"),
                ("/api/settings/name", "not json", "not valid JSON"),
                ("/api/settings/name", "", "a JSON body is needed"),
                ("/api/settings/personality", #"{"personality": "grumpy"}"#, "friendly, professional, witty, jarvis, casual"),
                ("/api/settings/wake-word", #"{"keyword": "hey glasses", "sensitivity": 1.5}"#, "'sensitivity' must be a number in 0...1"),
                ("/api/settings/wake-word", #"{"keyword": "x"}"#, "'keyword' must be 2...40"),
                ("/api/settings/voice", #"{"engine": "gtts"}"#, "'engine' must be one of espeak"),
                ("/api/settings/voice", #"{"rate": 5000}"#, "'rate' must be a whole number in 80...450"),
                ("/api/settings/voice", #"{"volume": -1}"#, "'volume' must be a number in 0...1"),
            ]
            for (path, body, message) in bad {
                let reply = try await daemon.request("PUT", path, body: body)
                #expect(reply.status == 400, "\(path) \(body): \(reply.status) \(reply.body)")
                #expect(reply.error.contains(message), "\(path) \(body): \(reply.body)")
                #expect(reply.contentType == "application/json")
            }
            let huge = try await daemon.request("PUT", "/api/settings/name", body: #"{"name": ""# + String(repeating: "a", count: 100_000) + #""}"#)
            #expect(huge.status == 413, "\(huge.status) \(huge.body)")
            #expect(huge.error.contains("over 65536 bytes"))
            let unchanged = try await daemon.request("GET", "/api/settings")
            #expect(unchanged.body == after.body)
            _ = try await daemon.stop()
        }

        @Test("unknown routes are 404 and wrong methods are refused, both as JSON")
        func notFound() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let missing = try await daemon.request("GET", "/api/photos")
            #expect(missing.status == 404)
            #expect(missing.error.contains("no such route: GET /api/photos"))
            let method = try await daemon.request("DELETE", "/api/settings")
            #expect([404, 405].contains(method.status), "\(method.status)")
            #expect(!method.error.isEmpty)
            _ = try await daemon.stop()
        }

        @Test("devices, route and route/profile on the simulated glasses; a bad profile or device is refused")
        func devicesAndRoute() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let devices = try await daemon.request("GET", "/api/devices")
            #expect(devices.status == 200)
            let glasses = try #require(devices.jsonArray.first)
            #expect(glasses["id"] as? String == "C0:FF:EE:00:00:02")
            #expect(glasses["link"] as? String == "connected")
            #expect(glasses["active"] as? Bool == true)
            let before = try await daemon.request("GET", "/api/route")
            #expect((before.json["device"] as? [String: Any])?["profile"] as? String == "media")
            let voice = try await daemon.request("PUT", "/api/route/profile", body: #"{"profile": "voice"}"#)
            #expect(voice.status == 200, "\(voice.body)")
            let after = try await daemon.request("GET", "/api/route")
            #expect((after.json["device"] as? [String: Any])?["profile"] as? String == "voice")
            #expect((after.json["source"] as? [String: Any])?["name"] as? String == "bluez_source.C0_FF_EE_00_00_02.handsfree_head_unit")
            let bad = try await daemon.request("PUT", "/api/route/profile", body: #"{"profile": "stereo"}"#)
            #expect(bad.status == 400)
            #expect(bad.error.contains("voice, media, off"))
            let unknown = try await daemon.request("PUT", "/api/route/profile", body: #"{"profile": "media", "device": "AA:BB"}"#)
            #expect(unknown.status == 404)
            #expect(unknown.error.contains("C0:FF:EE:00:00:02"))
            _ = try await daemon.stop()
        }

        @Test("sleep and wake change the status mode; listen while asleep is a conflict")
        func control() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let sleep = try await daemon.request("POST", "/api/control/sleep")
            #expect(sleep.status == 200 && sleep.json["message"] as? String == "Going to sleep")
            // The answer comes once asleep: the status says so at once, no polling.
            let mode = try await daemon.request("GET", "/api/status").json["mode"] as? String ?? ""
            #expect(mode == "sleep")
            let listen = try await daemon.request("POST", "/api/listen")
            #expect(listen.status == 409)
            #expect(listen.error.contains("asleep"))
            let wake = try await daemon.request("POST", "/api/control/wake")
            #expect(wake.json["message"] as? String == "Waking up")
            let status = try await daemon.request("GET", "/api/status").json
            #expect(status["mode"] as? String == "active")
            #expect(status["assistant"] as? String == "idle", "mediaFirst and not listening: waiting for a trigger")
            _ = try await daemon.stop()
        }

        /// `active` is said only where it is true: never while the assistant opens its route or,
        /// under voiceFirst, idles when it should be listening (a wake phrase it could not use
        /// left it there while the status said `active`).
        @Test("the status mode says active only while the assistant is listening or in a turn", arguments: AssistantPhase.allCases)
        func modeFollowsThePhase(phase: AssistantPhase) {
            let voiceFirst = StatusMode.of(phase, policy: .voiceFirst)
            let mediaFirst = StatusMode.of(phase, policy: .mediaFirst)
            switch phase {
            case .asleep: #expect(voiceFirst == "sleep" && mediaFirst == "sleep")
            case .listening, .capturing, .thinking, .speaking: #expect(voiceFirst == "active" && mediaFirst == "active")
            case .opening: #expect(voiceFirst == "starting" && mediaFirst == "starting")
            case .idle: #expect(voiceFirst == "starting" && mediaFirst == "active")
            }
        }

        @Test("speak plays on the glasses' speaker (saved with --speaker-out); empty or long text is refused")
        func speak() async throws {
            let directory = TemporaryDirectory()
            let out = directory.path("speaker.wav")
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"), arguments: ["--speaker-out", out])
            let spoken = try await daemon.request("POST", "/api/speak", body: #"{"text": "Hello from the daemon"}"#)
            #expect(spoken.status == 200, "\(spoken.body)")
            let seconds = try #require(spoken.json["seconds"] as? Double)
            #expect(seconds > 0.5)
            #expect(spoken.json["sink"] as? String == "bluez_sink.C0_FF_EE_00_00_02.a2dp_sink")
            let empty = try await daemon.request("POST", "/api/speak", body: #"{"text": "   "}"#)
            #expect(empty.status == 400 && empty.error.contains("'text' must be 1...1000"))
            let long = try await daemon.request("POST", "/api/speak", body: #"{"text": ""# + String(repeating: "a", count: 1001) + #""}"#)
            #expect(long.status == 400)
            let output = try await daemon.stop()
            #expect(output.status == 0, "\(output.stderr)")
            let saved = try String(contentsOfFile: out, encoding: .isoLatin1)
            #expect(saved.hasPrefix("RIFF"))
        }

        @Test("metrics in the Prometheus text format, the OpenAPI document as kept in docs/")
        func metricsAndDocument() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            _ = try await daemon.request("GET", "/api/status")
            let metrics = try await daemon.request("GET", "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.contentType?.hasPrefix("text/plain") == true)
            #expect(metrics.body.contains("glasses_audiod_events_total{type=\"route.changed\"}"), "\(metrics.body.prefix(2000))")
            #expect(metrics.body.contains("hb_requests"), "\(metrics.body.prefix(2000))")
            let document = try await daemon.request("GET", "/api/openapi.yaml")
            #expect(document.status == 200)
            let kept = try String(contentsOfFile: Self.repositoryFile("docs/openapi.yaml"), encoding: .utf8)
            #expect(document.body == kept)
            for (_, path, _) in Self.keyedRoutes where path != "/metrics" {
                #expect(kept.contains("  \(path):"), "\(path) is not in docs/openapi.yaml")
            }
            _ = try await daemon.stop()
        }

        static func repositoryFile(_ relative: String) -> String {
            var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent(relative).path
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
                directory.deleteLastPathComponent()
            }
            return relative
        }
    }
}
