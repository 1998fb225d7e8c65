import Foundation
import Testing
import TestKit

extension DaemonSuites {
    /// A wake word with no model ready trains for minutes: the daemon serves meanwhile, says so
    /// with the training's progress, and stops promptly when told to.
    @Suite("glasses-audiod wake preparation", .serialized)
    struct DaemonWakePreparationTests {
        @Test("a wake word with no model ready trains while the daemon serves (API and route), said with its progress; SIGTERM stops the training")
        func trainsWhileServing() async throws {
            let directory = TemporaryDirectory()
            // Empty caches and no openWakeWord feature models: the settings' wake word ("hey
            // glasses") runs on dtw, and its templates and classifier are trained from its text.
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"), listen: true,
                environment: ["XDG_CACHE_HOME": directory.path("cache"), "GLASSES_AUDIO_OPENWAKEWORD_DIR": directory.path("no-models")])
            #expect(daemon.child.waitForError("training the wake word for 'hey glasses'"), "\(daemon.child.stderrSoFar)")
            let status = try await daemon.request("GET", "/api/status")
            #expect(status.status == 200)
            let wake = try #require(status.json["wake"] as? [String: Any], "\(status.body)")
            #expect(wake["phrase"] as? String == "hey glasses")
            #expect(wake["state"] as? String == "training")
            let progress = try #require(wake["progress"] as? Double)
            #expect((0..<1).contains(progress))
            // Not listening yet: the assistant waits for its wake word.
            #expect(status.json["assistant"] as? String == "idle")
            let route = try await daemon.request("GET", "/api/route")
            #expect(route.status == 200)
            let stopped = try await daemon.stop(SIGTERM)
            #expect(stopped.status == 0, "\(stopped.stderr.suffix(4000))")
            #expect(stopped.stderr.contains("the wake word 'hey glasses' was not prepared: stopped"), "\(stopped.stderr.suffix(4000))")
        }

        @Test("a new wake word while another trains: that training stops and the new one trains, said as such")
        func aChangeStopsTheTrainingUnderWay() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"),
                environment: ["XDG_CACHE_HOME": directory.path("cache"), "GLASSES_AUDIO_OPENWAKEWORD_DIR": directory.path("no-models")])
            #expect(daemon.child.waitForError("training the wake word for 'hey glasses'"), "\(daemon.child.stderrSoFar)")
            let changed = try await daemon.request("PUT", "/api/settings/wake-word", body: #"{"keyword": "hello computer", "sensitivity": 0.5}"#)
            #expect(changed.status == 200, "\(changed.body)")
            #expect(daemon.child.waitForError("the wake word 'hey glasses' was not prepared: stopped"), "\(daemon.child.stderrSoFar)")
            #expect(daemon.child.waitForError("training the wake word for 'hello computer'"), "\(daemon.child.stderrSoFar)")
            let wake = try #require(try await daemon.request("GET", "/api/status").json["wake"] as? [String: Any])
            #expect(wake["phrase"] as? String == "hello computer")
            #expect(wake["state"] as? String == "training")
            let stopped = try await daemon.stop(SIGTERM)
            #expect(stopped.status == 0, "\(stopped.stderr.suffix(4000))")
        }
    }
}
