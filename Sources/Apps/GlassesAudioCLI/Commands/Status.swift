import ArgumentParser
import Foundation

/// `glasses-audio status`: what the running glasses-audiod says about itself.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the running glasses-audiod's status (mode, assistant, glasses, battery, timers).",
        discussion: "Talks to the daemon's HTTP API; without a daemon it says so and exits 1.")

    @OptionGroup var connection: DaemonConnection

    @Flag(help: "Print the daemon's JSON as it is.")
    var json = false

    func run() async throws {
        let client = try connection.client()
        if json {
            print(String(decoding: try await client.send("GET", "/api/status"), as: UTF8.self), terminator: "")
            return
        }
        let status = try await client.object("GET", "/api/status")
        let battery = (status["battery"] as? Int).map { "\($0) %" } ?? "unknown"
        let text = { (key: String) in Self.visible(status[key] as? String ?? "?") }
        print("glasses-audiod at \(connection.baseURL): \(text("mode")) on the \(text("backend")) backend")
        print("assistant: \(text("name")) (\(text("personality")))")
        print("glasses: \((status["connected"] as? Bool) == true ? "connected" : "not connected"), battery \(battery)")
        let timers = status["timers"] as? [[String: Any]] ?? []
        print("timers: \(timers.isEmpty ? "none" : timers.map(Self.timer).joined(separator: "; "))")
    }

    /// "pasta: 4:12 left of 5:00", "2:00 left of 2:00, paused", "tea: finished, ringing".
    static func timer(_ timer: [String: Any]) -> String {
        let name = (timer["name"] as? String).map { visible($0) + ": " } ?? ""
        if timer["finished"] as? Bool == true { return name + "finished, ringing" }
        let left = clock(timer["seconds_left"] as? Int ?? 0), total = clock(timer["total_seconds"] as? Int ?? 0)
        return name + "\(left) left of \(total)" + (timer["active"] as? Bool == false ? ", paused" : "")
    }

    /// 1:05:00, 4:12, 0:09.
    static func clock(_ seconds: Int) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    /// `text` with control and format characters shown as `\u{…}`: a value stored before the
    /// daemon checked them must not drive the terminal.
    static func visible(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: shown += "\\u{\(String(scalar.value, radix: 16))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
