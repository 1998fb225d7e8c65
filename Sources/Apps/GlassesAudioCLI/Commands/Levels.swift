import ArgumentParser
import AudioBackend
import BackendSelection
import AudioCore
import Foundation
import RouteService
import Routing

/// `glasses-audio levels`: a live RMS/peak meter of the glasses' mic.
struct Levels: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a live RMS/peak meter of the glasses' mic (Ctrl-C to stop).")

    @OptionGroup var backendOptions: BackendOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds (0.01...86400; default: run until Ctrl-C).", valueName: "seconds"),
            transform: DurationOption.length.transform)
    var seconds: Duration?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds between meter updates (0.01...10; default 0.1).", valueName: "seconds"),
            transform: DurationOption.meterInterval.transform)
    var interval: Duration = .milliseconds(100)

    @Option(help: "Source (mic) to meter, by name or device address (default: the glasses' mic).")
    var source: String?

    @Flag(help: "One JSON object per update: {time, rms_dbfs, peak_dbfs, held_peak_dbfs}.")
    var json = false

    struct Reading: Encodable {
        var time: Double
        var rmsDbfs: Double
        var peakDbfs: Double
        var heldPeakDbfs: Double
    }

    func run() async throws {
        let format = PCMFormat(sampleRate: 16000, channels: 1)
        try await BackendSession.withRoutes(backendOptions, quiet: json, failure: { CLIError("metering stopped: \($0)") }) { _, routes in
            let capture = try await RoutedStreams.capture(on: routes, source: source, format: format, wait: .seconds(10))
            if !json { printStatus("metering \(capture.source); Ctrl-C stops") }
            try await meter(capture.frames, format: format)
        }
    }

    /// Prints a reading every `interval` of `frames` until `seconds` (or the end).
    private func meter(_ frames: AsyncThrowingStream<AudioFrame, any Error>, format: PCMFormat) async throws {
        let window = Int((interval.inSeconds * Double(format.sampleRate)).rounded())
        let stopAfter = seconds.map { Int(($0.inSeconds * Double(format.sampleRate)).rounded()) }
        var metered = 0
        var pending: [Float] = []
        var meter = LevelMeter()
        var time = 0.0
        let interactive = isatty(STDOUT_FILENO) == 1
        for try await frame in frames {
            pending += frame.buffer.samples
            while pending.count >= window {
                meter.measure(AudioBuffer(format: format, samples: Array(pending.prefix(window))))
                pending.removeFirst(window)
                metered += window
                time = Double(metered) / Double(format.sampleRate)
                let level = meter.current
                if json {
                    try printJSON(Reading(time: (time * 1000).rounded() / 1000, rmsDbfs: level.rmsDBFS.rounded(to: 1),
                                          peakDbfs: level.peakDBFS.rounded(to: 1), heldPeakDbfs: meter.heldPeakDBFS.rounded(to: 1)))
                } else {
                    let line = String(format: "%7.2f s  rms %6.1f dBFS [%@]  peak %6.1f  hold %6.1f",
                                      time, level.rmsDBFS, LevelMeter.bar(dBFS: level.rmsDBFS, width: 30),
                                      level.peakDBFS, meter.heldPeakDBFS)
                    if interactive { print("\r" + line, terminator: ""); flushStandardOutput() } else { print(line) }
                }
                if let stopAfter, metered >= stopAfter { break }
            }
            if let stopAfter, metered >= stopAfter { break }
        }
        if interactive && !json { print("") }
    }
}

extension Double {
    func rounded(to places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
