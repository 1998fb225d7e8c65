import ArgumentParser
import AudioBackend
import BackendSelection
import AudioCore
import Foundation
import RouteService
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
        var service: RouteService?
        do {
            let routes = try await session.startRouteService(configuration: RoutingConfiguration(readyTimeout: timeout))
            service = routes
            let playback = try await RoutedStreams.playback(on: routes, sink: sink, format: audio.format, wait: timeout)
            sinkName = playback.sink
            if !json { printStatus(String(format: "playing %.2f s of %@ to %@", audio.duration, file, sinkName)) }
            let chunk = audio.format.sampleRate / 10
            var start = 0
            while start < audio.frameCount {
                try await playback.stream.write(audio.frames(start..<(start + chunk)))
                start += chunk
            }
            try await playback.stream.drain()
            if playback.session == nil { await playback.stream.close() }
        } catch {
            await service?.finish()
            try? await session.closeAndReport()
            throw CLIError("playback of \(file) failed: \(error)")
        }
        await service?.finish()
        try await session.closeAndReport()
        let result = Result(file: file, seconds: audio.duration, sink: sinkName, level: AudioLevel(measuring: audio.samples))
        if json { return try printJSON(result) }
        print(String(format: "played %.2f s from %@ to %@", result.seconds, file, sinkName))
    }
}
