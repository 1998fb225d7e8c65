import ArgumentParser
import AudioBackend
import AudioCore
import BackendSelection
import Foundation
import RouteService
import Routing
import Speech
import SpeechPlayback
import Synchronization

/// `glasses-audio say`: speak text through the glasses' speaker route, or into a WAV file.
struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speak text through the glasses' speakers (or into a WAV file with --out).",
        discussion: "Speech is made by the engine named (the embedded espeak-ng by default) and played while it is still being made.")

    @OptionGroup var backendOptions: BackendOptions

    @Option(help: ArgumentHelp("The speech engine: \(SpeechEngines.known.keys.sorted().joined(separator: ", ")).", valueName: "name"))
    var engine: String = "espeak"

    @Option(help: "The voice (an espeak-ng voice such as en-us, en-gb, de).")
    var voice: String = "en-us"

    @Option(parsing: .unconditional, help: "Words per minute, 80...450.")
    var rate: Int = 175

    @Option(parsing: .unconditional, help: "Volume, 0...1.")
    var volume: Double = 1

    @Option(parsing: .unconditional, help: "Pitch, 0...100 (50 is the voice's normal).")
    var pitch: Int = 50

    @Option(help: "Write the speech to this WAV file instead of playing it.")
    var out: String?

    @OptionGroup var routeWait: RouteWaitOption

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Argument(help: "What to say.")
    var text: String

    func validate() throws {
        guard !text.allSatisfy(\.isWhitespace) else { throw ValidationError("the text to say is empty") }
        do {
            try settings.validate()
            _ = try SpeechEngines.engine(named: engine)
        } catch { throw ValidationError("\(error)") }
    }

    var settings: SpeechSettings { SpeechSettings(engine: engine, voice: voice, rate: rate, volume: volume, pitch: pitch) }

    struct Result: Encodable {
        var text: String
        var seconds: Double
        var destination: String
        var firstChunkMilliseconds: Double
    }

    func run() async throws {
        let engine = try SpeechEngines.engine(named: settings.engine)
        let started = ContinuousClock.now
        let firstChunk = FirstChunkClock(started: started)
        if let out {
            var speech = AudioBuffer(format: PCMFormat(sampleRate: 22050, channels: 1))
            do {
                var first = true
                for try await chunk in engine.speak(text, settings: settings) {
                    if first {
                        first = false
                        firstChunk.mark()
                        speech = AudioBuffer(format: chunk.format)
                    }
                    speech.append(chunk)
                }
            } catch {
                throw CLIError("cannot say that: \(error)")
            }
            try WAVFile.write(speech, to: out)
            return try report(Result(text: text, seconds: speech.duration, destination: out, firstChunkMilliseconds: firstChunk.milliseconds))
        }
        let (text, settings, timeout) = (self.text, self.settings, routeWait.timeout)
        let said = try await BackendSession.withRoutes(
            backendOptions, quiet: json, configuration: RoutingConfiguration(readyTimeout: timeout), failure: { CLIError("cannot say that: \($0)") }
        ) { _, routes in
            try await RoutedSpeech.say(text, settings: settings, on: routes, wait: timeout, firstChunk: { firstChunk.mark() })
        }
        try report(Result(text: text, seconds: said.spoken.inSeconds, destination: said.sink, firstChunkMilliseconds: firstChunk.milliseconds))
    }

    private func report(_ result: Result) throws {
        if json { return try printJSON(result) }
        print(String(format: "said %.2f s to %@ (first chunk after %.0f ms)", result.seconds, result.destination, result.firstChunkMilliseconds))
    }
}

/// When the first chunk of speech came, for the report.
final class FirstChunkClock: Sendable {
    private let started: ContinuousClock.Instant
    private let first = Mutex<ContinuousClock.Instant?>(nil)
    init(started: ContinuousClock.Instant) { self.started = started }
    func mark() { first.withLock { if $0 == nil { $0 = .now } } }
    var milliseconds: Double {
        first.withLock { $0.map { Double(($0 - started) / .microseconds(1)) / 1000 } ?? 0 }
    }
}
