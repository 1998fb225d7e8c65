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
        let audio = try read(path)
        do {
            let detections = try WakeWordDetector(models: models, configuration: configuration).detections(in: audio)
            return WakeReport(file: path, detections: detections.map {
                .init(keyword: $0.keyword, time: rounded($0.time), score: rounded($0.score))
            })
        } catch {
            throw .voice(error)
        }
    }

    /// Commands captured after each wake detection in the audio file at `path`.
    public static func endpoint(
        path: String, models: [WakeWordModel], wake: WakeWordConfiguration,
        endpointer: EndpointerConfiguration = EndpointerConfiguration(), vad: VADConfiguration = VADConfiguration()
    ) throws(WakeWordBuildError) -> EndpointReport {
        let audio = try read(path)
        do {
            let pipeline = try VoicePipeline(vad: vad, wakeModels: models, wake: wake, endpointer: endpointer)
            let commands: [EndpointReport.Command] = try pipeline.events(in: audio).compactMap { event in
                switch event {
                case .command(let detection, let segment):
                    .init(keyword: detection.keyword, wakeTime: rounded(detection.time), start: rounded(segment.start),
                          end: rounded(segment.end), reason: segment.reason.rawValue)
                case .noCommand(let detection):
                    .init(keyword: detection.keyword, wakeTime: rounded(detection.time), start: nil, end: nil,
                          reason: "noSpeech")
                default: nil
                }
            }
            return EndpointReport(file: path, commands: commands)
        } catch {
            throw .voice(error)
        }
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

    static func read(_ path: String) throws(WakeWordBuildError) -> AudioBuffer {
        do {
            return try AudioFileReader.read(path)
        } catch {
            throw .audioFile(error)
        }
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
