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
            #expect(stopped.stderr.contains("the wake word 'hey glasses' was not prepared: the daemon is stopping"), "\(stopped.stderr.suffix(4000))")
        }
    }
}
