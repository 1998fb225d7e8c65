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

    @OptionGroup var routeWait: RouteWaitOption

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
        // Read a chunk at a time (a long file costs one chunk of memory); the first chunk is read
        // before anything opens, so a file that is no audio is said at once.
        let chunks = try AudioFileChunks(path: file, framesPerChunk: 4096, recovering: true)
        let format = chunks.format
        guard let first = try chunks.next() else { throw AudioFileError(path: file, problem: .empty) }
        if let damage = chunks.damage, let frames = chunks.frameCount {
            printStatus(String(format: "warning: %@: %@; playing the %.2f s before the damage", file, damage.description,
                               Double(frames) / Double(format.sampleRate)))
        }
        var level = LevelAccumulator()
        let sinkName = try await BackendSession.withRoutes(
            backendOptions, quiet: json, configuration: RoutingConfiguration(readyTimeout: routeWait.timeout), failure: { CLIError("playback of \(file) failed: \($0)") }
        ) { _, routes in
            let playback = try await RoutedStreams.playback(on: routes, sink: sink, format: format, wait: routeWait.timeout)
            let sinkName = playback.sink
            if !json {
                let length = chunks.frameCount.map { String(format: "%.2f s of ", Double($0) / Double(format.sampleRate)) } ?? ""
                printStatus("playing \(length)\(file) to \(sinkName)")
            }
            var next: AudioBuffer? = first
            while let audio = next {
                let tenth = format.sampleRate / 10
                var start = 0
                while start < audio.frameCount {
                    try await playback.stream.write(audio.frames(start..<min(audio.frameCount, start + tenth)))
                    start += tenth
                }
                level.add(audio.samples)
                next = try chunks.next()
            }
            try await playback.stream.drain()
            if playback.session == nil { await playback.stream.close() }
            return sinkName
        }
        let seconds = Double(chunks.framesRead) / Double(format.sampleRate)
        if let damage = chunks.damage, chunks.frameCount == nil {
            printStatus(String(format: "warning: %@: %@; played the %.2f s before the damage", file, damage.description, seconds))
        }
        let result = Result(file: file, seconds: seconds, sink: sinkName, level: level.level)
        if json { return try printJSON(result) }
        print(String(format: "played %.2f s from %@ to %@", result.seconds, file, sinkName))
    }
}
