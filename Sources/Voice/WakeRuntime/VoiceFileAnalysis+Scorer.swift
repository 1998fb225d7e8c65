public import Voice
import AudioCore

extension VoiceFileAnalysis {
    /// Wake detections in the audio file at `path` by any engine, run through the ``VoicePipeline``.
    public static func wake(path: String, scorer: any WakeWordScorer) throws(WakeWordBuildError) -> WakeReport {
        let pipeline: VoicePipeline
        do { pipeline = try VoicePipeline(scorer: scorer) } catch { throw .voice(error) }
        let events = try events(in: path, pipeline: pipeline)
        return WakeReport(file: path, detections: events.compactMap { event in
            guard case .wake(let detection) = event else { return nil }
            return .init(keyword: detection.keyword, time: rounded(detection.time.seconds), score: rounded(detection.score))
        })
    }
}

extension VoiceFileAnalysis {
    /// Commands captured after each wake detection of any engine in the audio file at `path`.
    public static func endpoint(
        path: String, scorer: any WakeWordScorer, endpointer: EndpointerConfiguration = EndpointerConfiguration(),
        vad: VADConfiguration = VADConfiguration()
    ) throws(WakeWordBuildError) -> EndpointReport {
        let pipeline: VoicePipeline
        do { pipeline = try VoicePipeline(vad: vad, scorer: scorer, endpointer: endpointer) } catch { throw .voice(error) }
        let events = try events(in: path, pipeline: pipeline)
        return EndpointReport(file: path, commands: events.compactMap { event in
            switch event {
            case .command(let detection, let segment):
                .init(keyword: detection.keyword, wakeTime: rounded(detection.time.seconds), start: rounded(segment.start.seconds),
                      end: rounded(segment.end.seconds), reason: segment.reason.rawValue)
            case .noCommand(let detection):
                .init(keyword: detection.keyword, wakeTime: rounded(detection.time.seconds), start: nil, end: nil, reason: "noSpeech")
            default: nil
            }
        })
    }
}
