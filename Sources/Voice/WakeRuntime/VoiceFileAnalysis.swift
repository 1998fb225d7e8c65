import Foundation
import AudioCore
public import Voice

/// One file's results in the shapes `glasses-audio vad|wake|endpoint --json` print.
public enum VoiceFileAnalysis {
    public struct Segment: Sendable, Codable, Equatable {
        public var start: Double
        public var end: Double
    }

    public struct VADReport: Sendable, Codable, Equatable {
        public var file: String
        public var segments: [Segment]
    }

    public struct WakeReport: Sendable, Codable, Equatable {
        public struct Detection: Sendable, Codable, Equatable {
            public var keyword: String
            /// End of the phrase, seconds.
            public var time: Double
            public var score: Double
        }
        public var file: String
        public var detections: [Detection]
    }

    public struct EndpointReport: Sendable, Codable, Equatable {
        public struct Command: Sendable, Codable, Equatable {
            public var keyword: String
            public var wakeTime: Double
            /// `nil` when nothing was said before the no-speech timeout.
            public var start: Double?
            public var end: Double?
            public var reason: String
        }
        public var file: String
        public var commands: [Command]
    }

    /// Speech segments of the audio file at `path`, read in chunks (memory bounded whatever
    /// the length).
    public static func vad(path: String, configuration: VADConfiguration = VADConfiguration())
        throws(WakeWordBuildError) -> VADReport
    {
        // Read and decided a chunk at a time: a two-hour file costs what a few seconds do.
        let chunks: AudioFileChunks
        do { chunks = try AudioFileChunks(path: path) } catch { throw .audioFile(error) }
        let stream: VADStream
        do { stream = try VADStream(inputFormat: chunks.format, configuration: configuration) } catch { throw .voice(error) }
        while true {
            let chunk: AudioBuffer?
            do { chunk = try chunks.next() } catch { throw .audioFile(error) }
            guard let chunk else { break }
            do { try stream.add(chunk) } catch { throw .voice(error) }
        }
        let segments: [ClosedRange<Double>]
        do { segments = try stream.finish() } catch { throw .voice(error) }
        return VADReport(file: path, segments: segments.map { Segment(start: $0.lowerBound, end: $0.upperBound) })
    }

    /// Wake detections in the audio file at `path`.
    public static func wake(path: String, models: [WakeWordModel], configuration: WakeWordConfiguration)
        throws(WakeWordBuildError) -> WakeReport
    {
        let detector: WakeWordDetector
        do { detector = try WakeWordDetector(models: models, configuration: configuration) } catch { throw .voice(error) }
        return try wake(path: path, scorer: detector)
    }

    /// Commands captured after each wake detection in the audio file at `path`.
    public static func endpoint(
        path: String, models: [WakeWordModel], wake: WakeWordConfiguration,
        endpointer: EndpointerConfiguration = EndpointerConfiguration(), vad: VADConfiguration = VADConfiguration()
    ) throws(WakeWordBuildError) -> EndpointReport {
        let detector: WakeWordDetector
        do { detector = try WakeWordDetector(models: models, configuration: wake) } catch { throw .voice(error) }
        return try self.endpoint(path: path, scorer: detector, endpointer: endpointer, vad: vad)
    }

    /// Models for several phrases from text, each enrolled with the recordings in `enrollDirectory`.
    public static func models(
        keywords: [String], enrollDirectory: String? = nil, builder: WakeWordTemplateBuilder = WakeWordTemplateBuilder()
    ) throws(WakeWordBuildError) -> [WakeWordModel] {
        guard !keywords.isEmpty else { throw .voice(.emptyKeyword) }
        var models: [WakeWordModel] = []
        for keyword in keywords {
            var model = try builder.model(for: keyword)
            if let enrollDirectory {
                model = try builder.enrolled(model, recordings: WakeWordTemplateBuilder.enrollmentRecordings(in: enrollDirectory))
            }
            models.append(model)
        }
        return models
    }

    /// The voice stage's events over the audio file at `path`, read and converted a chunk at a
    /// time (memory bounded whatever the length, as `vad`).
    static func events(in path: String, pipeline: VoicePipeline) throws(WakeWordBuildError) -> [VoiceEvent] {
        let chunks: AudioFileChunks
        do { chunks = try AudioFileChunks(path: path) } catch { throw .audioFile(error) }
        let input: VoiceInputStream
        do { input = try VoiceInputStream(inputFormat: chunks.format) } catch { throw .voice(error) }
        var events: [VoiceEvent] = []
        while true {
            let chunk: AudioBuffer?
            do { chunk = try chunks.next() } catch { throw .audioFile(error) }
            guard let chunk else { break }
            do { events += pipeline.process(try input.convert(chunk)) } catch { throw .voice(error) }
        }
        guard input.samplesSeen > 0 else { throw .voice(.emptyAudio) }
        do { events += pipeline.process(try input.flush()) } catch { throw .voice(error) }
        return events + pipeline.finish()
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
