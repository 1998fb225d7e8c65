import AudioCore
import Foundation
import Testing
import TestKit

/// What `/api/status` and `glasses-audio status` must show after Home Assistant's timer events
/// (the scripts' sequence: pasta 300 s running, tea 120 s paused at 100 s, eggs cancelled,
/// toast 60 s finished), over Wyoming or the ESPHome API alike.
enum HomeAssistantTimers {
    static func expectShown(_ timers: [[String: Any]], status: String) throws {
        #expect(timers.map { $0["name"] as? String } == ["pasta", "tea", "toast"])
        #expect(timers.map { $0["total_seconds"] as? Int } == [300, 120, 60])
        let pastaLeft = try #require(timers[0]["seconds_left"] as? Int)
        #expect(pastaLeft > 0 && pastaLeft <= 300)  // running: it counts down from 300
        #expect(timers.map { $0["active"] as? Bool } == [true, false, false])
        #expect(timers[1]["seconds_left"] as? Int == 100)  // paused with 100 s left
        #expect(timers.map { $0["finished"] as? Bool } == [false, false, true])
        #expect(status.contains("tea: 1:40 left of 2:00, paused"), "\(status)")
        #expect(status.contains("toast: finished, ringing"), "\(status)")
        #expect(status.contains("pasta: "), "\(status)")
        #expect(!status.contains("eggs"), "\(status)")
    }

    /// A daemon for a finished timer to ring on (mediaFirst, listening): its simulated mic hears
    /// 3 s of quiet, then "hey glasses, what time is it", so the wake phrase comes while the
    /// timer rings; what its speaker plays is written to the returned path.
    static func ringingDaemon(in directory: TemporaryDirectory, root: String, arguments: [String] = []) async throws -> (DaemonProcess, speaker: String) {
        let speaker = directory.path("speaker.wav")
        let phrase = try AudioFileReader.read(root + "/samples/hey-glasses-what-time.wav")
        let quiet = [Float](repeating: 0, count: Int(phrase.format.sampleRate) * 3)
        let mic = directory.path("mic.wav")
        try WAVFile.write(AudioBuffer(format: phrase.format, samples: quiet + phrase.samples), to: mic)
        let daemon = try await DaemonProcess.start(
            dataDirectory: directory.path("data"), listen: true,
            arguments: arguments + ["--policy", "mediaFirst", "--mic", mic, "--mic-mode", "once", "--speaker-out", speaker])
        return (daemon, speaker)
    }
}
