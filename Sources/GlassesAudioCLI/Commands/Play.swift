import ArgumentParser
import AudioBackend
import AudioCore
import Foundation
import Routing

/// `glasses-audio play`: play a file through the glasses' speakers.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Play a .wav or .opus file through the glasses' speakers.")

    @OptionGroup var backendOptions: BackendOptions

    @Option(help: "Sink (speaker) to play to, by name or device address (default: the glasses').")
    var sink: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("How long to wait for the route to become ready, in seconds (0.1...3600; default 10).", valueName: "seconds"),
            transform: DurationOption.timeout.transform)
    var timeout: Duration = .seconds(10)

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Argument(help: "The file to play.")
    var file: String

    struct Result: Encodable {
        var file: String
        var seconds: Double
        var sink: String
        var level: AudioLevel
    }

    func run() async throws {
        let recovered = try AudioFileReader.readRecovering(file)
        let audio = recovered.buffer
        if let damage = recovered.damage {
            printStatus(String(format: "warning: %@: %@; playing the %.2f s before the damage", file, damage.description, audio.duration))
        }
        let session = try await BackendSession.open(backendOptions, quiet: json)
        var sinkName = sink ?? "default"
        do {
            if sink == nil {
                let endpoint = try await RoutePreparation.endpoint(
                    on: session.backend, device: nil, direction: .sink, timeout: timeout)
                sinkName = endpoint?.name ?? "default"
            }
            if !json { printStatus(String(format: "playing %.2f s of %@ to %@", audio.duration, file, sinkName)) }
            let stream = try await session.backend.openPlayback(sink: sinkName == "default" ? nil : sinkName, format: audio.format)
            let chunk = audio.format.sampleRate / 10
            var start = 0
            while start < audio.frameCount {
                try await stream.write(audio.frames(start..<(start + chunk)))
                start += chunk
            }
            try await stream.drain()
            await stream.close()
        } catch {
            try? await session.close()
            throw CLIError("playback of \(file) failed: \(error)")
        }
        try await session.close()
        let result = Result(file: file, seconds: audio.duration, sink: sinkName, level: AudioLevel(measuring: audio.samples))
        if json { return try printJSON(result) }
        print(String(format: "played %.2f s from %@ to %@", result.seconds, file, sinkName))
    }
}
