import Foundation

extension Monitor {
    /// `monitor --daemon`: follows the running glasses-audiod's `/api/events` instead of a
    /// backend of its own; one line per event (the daemon's JSON with --json).
    func followDaemon() async throws {
        let client = try connection.client()
        _ = try await client.send("GET", "/api/status")  // says so at once when no daemon answers
        let interrupt = Interrupt()  // caught from here: the status line's Ctrl-C is never lost
        if !json { printStatus("following glasses-audiod at \(client.baseURL); Ctrl-C stops") }
        let (json, count, seconds) = (self.json, self.count, self.seconds)
        let events = client.events()
        try await interrupt.cancellable {
            try await forAtMost(seconds) {
                var seen = 0
                for try await event in events {
                    if json {
                        print(event.data)
                    } else {
                        print(Self.line(event))
                    }
                    flushStandardOutput()
                    seen += 1
                    if let count, seen >= count { return }
                }
                if Task.isCancelled { return }
                throw CLIError("glasses-audiod closed the event stream (it stopped)")
            }
        }
    }

    /// `12  route.changed  reason=oldDeviceUnavailable …` from the event's JSON.
    static func line(_ event: ServerSentEvent) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] ?? [:]
        let fields = (object["data"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(value is NSNull ? "none" : "\(value)")"
        }
        return ([event.id ?? "-", event.event] + fields).joined(separator: "  ")
    }
}
