import ArgumentParser
import Foundation

/// `glasses-audio status`: what the running glasses-audiod says about itself.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the running glasses-audiod's status (mode, assistant, glasses, battery).",
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
        print("glasses-audiod at \(connection.baseURL): \(status["mode"] as? String ?? "?") on the \(status["backend"] as? String ?? "?") backend")
        print("assistant: \(status["name"] as? String ?? "?") (\(status["personality"] as? String ?? "?"))")
        print("glasses: \((status["connected"] as? Bool) == true ? "connected" : "not connected"), battery \(battery)")
    }
}
