import Foundation
import Testing

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
}
