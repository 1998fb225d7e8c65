import ArgumentParser
import Foundation

/// `glasses-audio pair-app`: opens the running glasses-audiod's pairing window for the
/// companion app (`POST /api/pairing`).
struct PairApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair-app",
        abstract: "Let the companion app pair: the glasses speak a 6-digit code to enter in the app.",
        discussion: "The app finds the glasses over Bluetooth LE, you type the code the glasses say, and it gets the API key once. "
            + "The window closes after its time or after 5 wrong codes.")

    @OptionGroup var connection: DaemonConnection

    func run() async throws {
        let answer = try await connection.client().object("POST", "/api/pairing")
        let seconds = (answer["closes_in"] as? Double).map { Int($0) } ?? 0
        print("pairing window open for \(seconds) s: the glasses speak a 6-digit code; enter it in the companion app")
    }
}
