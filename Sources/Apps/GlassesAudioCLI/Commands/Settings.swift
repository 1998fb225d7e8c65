import ArgumentParser
import Foundation

/// `glasses-audio settings get|set`: the running daemon's assistant settings.
struct Settings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read or change the running glasses-audiod's assistant settings.",
        subcommands: [Get.self, Set.self])

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the settings as JSON.")

        @OptionGroup var connection: DaemonConnection

        func run() async throws {
            let data = try await connection.client().send("GET", "/api/settings")
            print(String(decoding: data, as: UTF8.self), terminator: "")
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change one setting; the daemon checks the value and says what it accepts.",
            discussion: "Fields: \(Field.allCases.map(\.rawValue).joined(separator: ", ")). "
                + "E.g. 'settings set name Alfred', 'settings set wake-word \"hey jarvis\"', 'settings set voice-rate 160'.")

        enum Field: String, CaseIterable, ExpressibleByArgument {
            case name, personality
            case wakeWord = "wake-word"
            case sensitivity
            case voiceEngine = "voice-engine"
            case voiceRate = "voice-rate"
            case voiceVolume = "voice-volume"
        }

        @OptionGroup var connection: DaemonConnection

        @Argument(help: "The setting: \(Field.allCases.map(\.rawValue).joined(separator: ", ")).")
        var field: Field

        /// One value; taken as given even when it starts with a dash (`voice-rate -5`, `sensitivity -inf`), so
        /// the check that refuses it is the field's own.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Its new value.", valueName: "value"))
        var values: [String] = []

        var value: String { values.first ?? "" }

        func validate() throws {
            guard values.count == 1 else {
                throw ValidationError(values.isEmpty ? "give the new value after the field" : "give one value (quote it if it has spaces)")
            }
        }

        /// The route and the body that change `field`.
        func request(current: [String: Any]) throws -> (String, [String: any Sendable]) {
            let wake = current["wake_word"] as? [String: Any] ?? [:]
            switch field {
            case .name: return ("/api/settings/name", ["name": value])
            case .personality: return ("/api/settings/personality", ["personality": value])
            case .wakeWord: return ("/api/settings/wake-word", ["keyword": value])
            case .sensitivity:
                return ("/api/settings/wake-word", ["keyword": wake["keyword"] as? String ?? "", "sensitivity": try number(Double.self)])
            case .voiceEngine: return ("/api/settings/voice", ["engine": value])
            case .voiceRate: return ("/api/settings/voice", ["rate": try number(Int.self)])
            case .voiceVolume: return ("/api/settings/voice", ["volume": try number(Double.self)])
            }
        }

        func number<T: LosslessStringConvertible & Sendable>(_ type: T.Type) throws -> T {
            guard let number = T(value) else { throw ValidationError("\(field.rawValue) takes a number, not '\(value)'") }
            if let real = number as? Double, !real.isFinite {
                throw ValidationError("\(field.rawValue) takes a finite number, not '\(value)'")
            }
            return number
        }

        func run() async throws {
            let client = try connection.client()
            let current = field == .sensitivity ? try await client.object("GET", "/api/settings") : [:]
            let (path, body) = try request(current: current)
            _ = try await client.send("PUT", path, body: body)
            let data = try await client.send("GET", "/api/settings")
            print(String(decoding: data, as: UTF8.self), terminator: "")
        }
    }
}
