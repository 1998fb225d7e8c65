import ArgumentParser
import AudioBackend
import BackendSelection
import AudioCore
import Foundation
import RouteService
import Routing

/// `glasses-audio record`: capture the glasses' mic to a WAV or Ogg Opus file.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the glasses' mic to a .wav or .opus file.",
        discussion: "Switches the device to its voice (HFP) profile if needed and waits until the mic exists before recording.")

    @OptionGroup var backendOptions: BackendOptions

    @Option(help: "How long to record, in seconds.")
    var seconds: Double = 3

    @Option(help: "Sample rate of the file.")
    var rate: Int = 16000

    @Option(help: "Channels of the file.")
    var channels: Int = 1

    @Option(help: "Source (mic) to record from, by name or device address (default: the glasses' mic).")
    var source: String?

    @Option(help: "Ogg Opus bitrate in bit/s (for .opus files).")
    var bitrate: Int = 24000

    @Option(help: "How long to wait for the route to become ready, in seconds.")
    var timeout: Double = 10

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Argument(help: "Output file: .wav or .opus.")
    var output: String

    func validate() throws {
        guard seconds > 0 && seconds <= 3600 else { throw ValidationError("--seconds must be within 0...3600") }
        do { try PCMFormat(sampleRate: rate, channels: channels).validate() } catch {
            throw ValidationError("--rate/--channels: \(error)")
        }
        guard output.hasSuffix(".wav") || output.hasSuffix(".opus") else {
            throw ValidationError("the output file must end in .wav or .opus, got '\(output)'")
        }
        guard bitrate >= 6000 && bitrate <= 510_000 else { throw ValidationError("--bitrate must be within 6000...510000") }
    }

    struct Result: Encodable {
        var file: String
        var seconds: Double
        var frames: Int
        var sampleRate: Int
        var channels: Int
        var source: String
        var level: AudioLevel
        var complete: Bool
    }

    func run() async throws {
        let session = try await BackendSession.open(backendOptions, quiet: json)
        let format = PCMFormat(sampleRate: rate, channels: channels)
        var recorded = AudioBuffer(format: format)
        var failure: (any Error)?
        var sourceName = source ?? "default"
        var service: RouteService?
        do {
            let routes = try await session.startRouteService(configuration: RoutingConfiguration(readyTimeout: .seconds(timeout)))
            service = routes
            let capture = try await RoutedStreams.capture(on: routes, source: source, format: format, wait: .seconds(timeout))
            sourceName = capture.source
            if !json { printStatus("recording \(seconds) s from \(sourceName) (\(format))") }
            let wanted = Int(seconds * Double(rate))
            var progress = ProgressLine(total: seconds, enabled: !json)
            for try await frame in capture.frames {
                recorded.append(frame.buffer.frames(0..<(wanted - recorded.frameCount)))
                progress.update(done: recorded.duration, level: AudioLevel(measuring: frame.buffer.samples))
                if recorded.frameCount >= wanted { break }
            }
            progress.finish()
        } catch {
            failure = error
        }
        await service?.finish()
        try await session.closeAndReport()
        if !recorded.isEmpty {
            try save(recorded)
        }
        let result = Result(
            file: output, seconds: recorded.duration, frames: recorded.frameCount, sampleRate: rate, channels: channels,
            source: sourceName, level: AudioLevel(measuring: recorded.samples), complete: failure == nil)
        if let failure {
            let kept = recorded.isEmpty ? "nothing was recorded" : String(format: "the %.2f s recorded so far are in %@", recorded.duration, output)
            throw CLIError("recording stopped after \(String(format: "%.2f", recorded.duration)) s: \(failure); \(kept)")
        }
        if json { return try printJSON(result) }
        print(String(format: "recorded %.2f s (%d frames, %@) from %@ to %@; rms %.1f dBFS, peak %.1f dBFS",
                     result.seconds, result.frames, format.description, sourceName, output,
                     result.level.rmsDBFS, result.level.peakDBFS))
    }

    private func save(_ buffer: AudioBuffer) throws {
        if output.hasSuffix(".opus") {
            try OggOpusFile.write(buffer, to: output, bitrate: bitrate)
        } else {
            try WAVFile.write(buffer, to: output)
        }
    }
}
