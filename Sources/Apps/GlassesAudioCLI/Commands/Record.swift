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

    @Option(parsing: .unconditional, help: ArgumentHelp("How long to record, in seconds (0.01...86400; default 3).", valueName: "seconds"),
            transform: DurationOption.length.transform)
    var seconds: Duration = .seconds(3)

    @Option(parsing: .unconditional, help: "Sample rate of the file.")
    var rate: Int = 16000

    @Option(parsing: .unconditional, help: "Channels of the file.")
    var channels: Int = 1

    @Option(help: "Source (mic) to record from, by name or device address (default: the glasses' mic).")
    var source: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Ogg Opus bitrate in bit/s, for .opus files (6000...510000; default 24000).", valueName: "bit/s"),
            transform: CountOption.bitrate.transform)
    var bitrate: Int = 24000

    @OptionGroup var routeWait: RouteWaitOption

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Argument(help: "Output file: .wav or .opus.")
    var output: String

    func validate() throws {
        do { try PCMFormat(sampleRate: rate, channels: channels).validate() } catch {
            throw ValidationError("--rate/--channels: \(error)")
        }
        guard output.hasSuffix(".wav") || output.hasSuffix(".opus") else {
            throw ValidationError("the output file must end in .wav or .opus, got '\(output)'")
        }
        let longest = WAVFileWriter.maximumDuration(for: PCMFormat(sampleRate: rate, channels: channels))
        if output.hasSuffix(".wav"), seconds.inSeconds > longest {
            throw ValidationError(String(
                format: "--seconds %@ does not fit a WAV file: it holds at most 4 GiB, %.0f s at %d Hz and %d channels; record to .opus or fewer seconds",
                compact(seconds.inSeconds), longest.rounded(.down), rate, channels))
        }
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
        let interrupt = Interrupt()
        let format = PCMFormat(sampleRate: rate, channels: channels)
        // The file is created before anything is captured: a bad destination fails now, and
        // what arrives goes to disk as it comes (see AudioFileWriter), never held in memory.
        let writer: any AudioFileWriter
        do { writer = try AudioFileWriters.open(output, format: format, bitrate: bitrate) } catch { throw CLIError("\(error)") }
        // What was captured is kept when the capture stops early: the failure is reported below.
        let failure: (any Error)?
        let sourceName: String
        do {
            (failure, sourceName) = try await BackendSession.withRoutes(
                backendOptions, quiet: json, configuration: RoutingConfiguration(readyTimeout: routeWait.timeout),
                failure: { CLIError("nothing was recorded: \($0)") }
            ) { _, routes in
                var sourceName = source ?? "default"
                do {
                    let capture = try await RoutedStreams.capture(on: routes, source: source, format: format, wait: routeWait.timeout)
                    sourceName = capture.source
                    try await record(capture.frames, from: sourceName, to: writer, interrupt: interrupt)
                    return (nil, sourceName)
                } catch {
                    return (error, sourceName)
                }
            }
        } catch {
            if writer.framesWritten == 0 { discard(writer) } else { try? writer.close() }
            throw error
        }
        guard writer.framesWritten > 0 else {
            discard(writer)
            if let signal = interrupt.caught { throw ExitCode(128 + signal) }
            throw CLIError("nothing was recorded" + (failure.map { ": \($0)" } ?? ""))
        }
        do { try writer.close() } catch { throw CLIError("\(error)") }
        let result = Result(
            file: output, seconds: writer.duration, frames: writer.framesWritten, sampleRate: rate, channels: channels,
            source: sourceName, level: writer.level, complete: failure == nil && interrupt.caught == nil)
        if let failure {
            throw CLIError(String(format: "recording stopped after %.2f s: %@; the %.2f s recorded so far are in %@",
                                  writer.duration, "\(failure)", writer.duration, output))
        }
        if json {
            try printJSON(result)
        } else {
            print(String(format: "recorded %.2f s (%d frames, %@) from %@ to %@; rms %.1f dBFS, peak %.1f dBFS",
                         result.seconds, result.frames, format.description, sourceName, output,
                         result.level.rmsDBFS, result.level.peakDBFS))
        }
        if let signal = interrupt.caught {
            printStatus("interrupted by \(Interrupt.name(signal)); the recording is complete up to there")
            throw ExitCode(128 + signal)
        }
    }

    /// Writes `frames` until `seconds` are in the file (or Ctrl-C), with a progress line.
    private func record(
        _ frames: AsyncThrowingStream<AudioFrame, any Error>, from sourceName: String, to writer: any AudioFileWriter, interrupt: Interrupt
    ) async throws {
        if !json { printStatus("recording \(compact(seconds.inSeconds)) s from \(sourceName) (\(writer.format))") }
        let wanted = Int((seconds.inSeconds * Double(rate)).rounded())
        let (json, total) = (self.json, seconds.inSeconds)
        try await interrupt.cancellable {
            var progress = ProgressLine(total: total, enabled: !json)
            defer { progress.finish() }
            for try await frame in frames {
                try writer.write(frame.buffer.frames(0..<(wanted - writer.framesWritten)))
                progress.update(done: writer.duration, level: AudioLevel(measuring: frame.buffer.samples))
                if writer.framesWritten >= wanted { break }
            }
        }
    }

    /// Removes a file that holds no audio (nothing was captured), so no empty file is left.
    private func discard(_ writer: any AudioFileWriter) {
        try? writer.close()
        unlink(writer.path)
    }
}
