import AudioCore
import CMalloc
import Foundation
import Logging
import NIOCore
import NIOPosix
import OpenWakeWord
import Synchronization
import Voice
import VoiceTraining
import WakeRuntime
import Wyoming
import WyomingServer

/// Concurrent Wyoming wake-word streams against the server, paced in real time: each client
/// sends the wake phrase in 1024-sample chunks (64 ms) on a real-time schedule, a ping after
/// each pass, and counts detections. A stream is served in real time while the answer to the
/// ping after its last chunk (server lag) stays under the limit and every pass is detected.
/// `--engine neural` runs the neural head the daemon runs (dtw by default); `--per-stream N`
/// prints the memory N streams' engines take, without the server.
///   WyomingBench [--engine dtw|neural] [--streams 64,128,200] [--passes 2] [--lag-limit-ms 500] [--json]
@main
struct WyomingBench {
    struct Result: Encodable {
        var streams: Int
        var passes: Int
        var detectedPasses: Int
        var lagMedianMs: Double
        var lagP95Ms: Double
        var lagMaxMs: Double
        var cpuPercent: Double
        /// CPU per stream, in % of one core (whole process: server and the clients' framing).
        var cpuPerStreamPercent: Double
        /// How many streams `nproc` cores would carry at that cost.
        var capacity: Int
        var realTime: Bool
        var loadAverage: Double
        /// The process's resident memory (server, models and the clients) at the end of the
        /// level, and its peak so far, in MB.
        var rssMB: Double
        var peakRSSMB: Double
    }

    static func main() async throws {
        // The daemon's malloc setting (glasses-audiod), so the memory measured is the service's.
        glasses_service_malloc_settings()
        let arguments = CommandLine.arguments
        func value(_ flag: String) -> String? { arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil } }
        let counts = (value("--streams") ?? "64,128,200,256").split(separator: ",").compactMap { Int($0) }
        if arguments.contains("--help") {
            print("WyomingBench [--engine dtw|neural] [--streams 64,128,200] [--passes 2] [--lag-limit-ms 500] [--json]")
            return
        }
        let passes = Int(value("--passes") ?? "2") ?? 2
        let lagLimit = Double(value("--lag-limit-ms") ?? "500") ?? 500
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let sample = try AudioFileReader.read(root + "/samples/hey-glasses-what-time.wav")
        let pcm = PCMConversion.s16le(sample.samples)

        let choice: WakeEngineChoice
        switch value("--engine") ?? "dtw" {
        case "dtw": choice = .dtw
        case "neural":
            choice = WakeEngineChoice.default(for: "hey glasses")
            guard choice.isNeural else {
                print("no neural head for 'hey glasses' is ready: run `glasses-audio prepare-wake --keyword \"hey glasses\"` or scripts/prepare-wake")
                return
            }
        case let other:
            print("unknown --engine \(other): use neural or dtw")
            return
        }
        let prepared = try choice.prepare { [try WakeWordTemplateBuilder().model(for: "hey glasses")] }
        if let count = value("--per-stream").flatMap(Int.init) {
            // Memory per stream without the server: `count` scorers alone, then as many
            // pipelines (VAD, endpointer and log-mel front end around a scorer), each fed the phrase.
            let base = residentMegabytes()
            var scorers: [any WakeWordScorer] = []
            for _ in 0..<count {
                let scorer = try prepared.makeScorer(configuration: WakeWordConfiguration())
                _ = scorer.finish(samples: sample.samples[...])
                scorers.append(scorer)
            }
            let afterScorers = residentMegabytes()
            var pipelines: [VoicePipeline] = []
            for _ in 0..<count {
                let pipeline = try VoicePipeline(scorer: try prepared.makeScorer(configuration: WakeWordConfiguration()))
                _ = pipeline.process(sample.samples)
                pipelines.append(pipeline)
            }
            print(String(format: "per stream: a scorer %.2f MB, a pipeline with its scorer %.2f MB (%d of each)",
                (afterScorers - base) / Double(count), (residentMegabytes() - afterScorers) / Double(count), count))
            return
        }
        if case .neural(let models) = prepared, !arguments.contains("--json") {
            let features = try OpenWakeWordFeatures(
                melspectrogram: models.melspectrogram, embedding: models.embedding, start: models.silentStart)
            _ = features.process(sample.samples)
            let bytes = features.streamBytes
            print(String(format: "one stream's front end keeps %.0f KB: audio %.0f, mel frames %.0f, embedding tensors %.0f, kept rows %.0f",
                Double(bytes.audio + bytes.mels + bytes.embeddingTensors + bytes.embeddingRows) / 1024, Double(bytes.audio) / 1024,
                Double(bytes.mels) / 1024, Double(bytes.embeddingTensors) / 1024, Double(bytes.embeddingRows) / 1024))
        }
        let engine = WakeWordEngine(words: [.init(name: "hey_glasses", phrase: "hey glasses")]) {
            try prepared.makeScorer(configuration: WakeWordConfiguration())
        }
        if !arguments.contains("--json") {
            print(String(format: "engine %@: %@; RSS with the models loaded %.0f MB", choice.isNeural ? "neural" : "dtw", choice.describe(phrase: "hey glasses"), residentMegabytes()))
        }
        var logger = Logger(label: "wyoming-bench")
        logger.logLevel = .warning
        let server = try await WyomingServer.bind(configuration: WyomingServerConfiguration(port: 0), wake: engine, logger: logger)
        let serving = Task { try await server.run() }

        var results: [Result] = []
        for count in counts {
            let result = try await run(
                streams: count, passes: passes, pcm: pcm, seconds: sample.duration, port: server.port, lagLimit: lagLimit)
            results.append(result)
            if !arguments.contains("--json") {
                print(
                    String(
                        format:
                            "%4d streams: lag median %6.1f ms, p95 %7.1f ms, max %7.1f ms; %d/%d passes detected; CPU %5.1f%% (%.2f%% a stream, %d streams on %d cores); RSS %.0f MB (peak %.0f) -> %@ (load average %.1f)",
                        result.streams, result.lagMedianMs, result.lagP95Ms, result.lagMaxMs, result.detectedPasses, result.streams * result.passes,
                        result.cpuPercent, result.cpuPerStreamPercent, result.capacity, ProcessInfo.processInfo.activeProcessorCount,
                        result.rssMB, result.peakRSSMB, result.realTime ? "real time" : "falls behind", result.loadAverage))
            }
        }
        if arguments.contains("--json") {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        }
        serving.cancel()
    }

    /// One load level: `streams` clients started 64 ms / streams apart, each sending `passes`
    /// passes of the phrase in real time.
    static func run(streams: Int, passes: Int, pcm: [UInt8], seconds: Double, port: Int, lagLimit: Double) async throws -> Result {
        let cpuStart = cpuSeconds()
        let wallStart = ContinuousClock.now
        var lags: [Double] = []
        var hits = 0
        try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for index in 0..<streams {
                group.addTask {
                    let offset = Duration.milliseconds(64) * index / streams
                    return try await stream(pcm: pcm, passes: passes, port: port, startAfter: offset)
                }
            }
            for try await (lag, detected) in group {
                lags += lag
                hits += detected
            }
        }
        let wall = ContinuousClock.now - wallStart
        let cpu = cpuSeconds() - cpuStart
        let sorted = lags.sorted()
        func quantile(_ q: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))] }
        let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        let perStream = cpu / (Double(streams * passes) * seconds) * 100
        var load = [Double](repeating: 0, count: 1)
        getloadavg(&load, 1)
        return Result(
            streams: streams, passes: passes, detectedPasses: hits, lagMedianMs: quantile(0.5), lagP95Ms: quantile(0.95), lagMaxMs: sorted.last ?? 0,
            cpuPercent: cpu / wallSeconds * 100, cpuPerStreamPercent: perStream,
            capacity: Int(Double(ProcessInfo.processInfo.activeProcessorCount * 100) / perStream),
            realTime: quantile(0.95) < lagLimit && hits == streams * passes, loadAverage: load[0],
            rssMB: residentMegabytes(), peakRSSMB: residentMegabytes(field: "VmHWM"))
    }

    /// One client: returns the server lag after each pass (ms) and the passes with a detection.
    static func stream(pcm: [UInt8], passes: Int, port: Int, startAfter offset: Duration) async throws -> ([Double], Int) {
        let clock = ContinuousClock()
        try await clock.sleep(for: offset)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            func send(_ event: WyomingEvent) async throws { try await outbound.write(ByteBuffer(bytes: WyomingFrameEncoder.encode(event))) }
            let pingSent = PingTimes()
            let reader = Task { () -> ([Double], Int) in
                var decoder = WyomingFrameDecoder()
                var lags: [Double] = []
                var hitPasses = Set<Int>()
                var pass = 0
                for try await buffer in inbound {
                    decoder.append(buffer.readableBytesView)
                    while let frame = try decoder.next() {
                        switch try WyomingEvent(frame: frame) {
                        case .detection: hitPasses.insert(pass)
                        case .pong(let text):
                            guard let number = text.flatMap(Int.init), let sent = pingSent.times.withLock({ $0[number] }) else { continue }
                            let lag = ContinuousClock.now - sent
                            lags.append(Double(lag.components.attoseconds) / 1e15 + Double(lag.components.seconds) * 1000)
                            pass += 1
                            if pass == passes { return (lags, hitPasses.count) }
                        default: break
                        }
                    }
                }
                return (lags, hitPasses.count)
            }
            let format = WyomingAudioFormat.voice
            let chunkBytes = 2048
            var next = clock.now
            for number in 0..<passes {
                try await send(.detect(names: nil))
                try await send(.audioStart(format, timestamp: 0))
                var start = 0
                while start < pcm.count {
                    let end = min(pcm.count, start + chunkBytes)
                    try await send(.audioChunk(format, timestamp: nil, audio: Array(pcm[start..<end])))
                    next += .milliseconds(64)
                    try await clock.sleep(until: next)
                    start = end
                }
                try await send(.audioStop(timestamp: nil))
                pingSent.times.withLock { $0[number] = clock.now }
                try await send(.ping(text: String(number)))
            }
            return try await reader.value
        }
    }

    /// A `/proc/self/status` memory field (VmRSS, VmHWM) in MB.
    static func residentMegabytes(field: String = "VmRSS") -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Double(line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
        }
        return 0
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// When each ping was sent, shared with the reading task.
final class PingTimes: Sendable {
    let times = Mutex<[Int: ContinuousClock.Instant]>([:])
}
