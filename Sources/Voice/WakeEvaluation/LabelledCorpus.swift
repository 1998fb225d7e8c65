import WakeRuntime
import Foundation
public import AudioCore
import Voice

/// A corpus written by `scripts/make-corpus`: WAV files and `labels.jsonl`.
public struct LabelledCorpus: Sendable {
    public struct Occurrence: Sendable, Codable, Equatable {
        public var text: String
        public var start: Double
        public var end: Double
    }

    public struct Entry: Sendable, Codable, Equatable {
        public var file: String
        /// positive, negative, confusable or noise.
        public var kind: String
        public var duration: Double
        public var keywords: [Occurrence]
        /// Speech truth as [start, end] pairs in seconds (10 ms resolution).
        public var speech: [[Double]]
        public var voices: [String]
        public var noise: String
        public var snr: Double?

        /// Speech truth per 10 ms frame, `count` frames long.
        public func speechFrames(count: Int) -> [Bool] {
            var frames = Array(repeating: false, count: count)
            for segment in speech where segment.count == 2 {
                let first = max(0, Int((segment[0] * 100).rounded()))
                let last = min(count, Int((segment[1] * 100).rounded()))
                if first < last { for index in first..<last { frames[index] = true } }
            }
            return frames
        }
    }

    public let directory: String
    public let entries: [Entry]

    public init(directory: String) throws(WakeWordBuildError) {
        let path = (directory as NSString).appendingPathComponent("labels.jsonl")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .enrollment("cannot read \(path): not a corpus made by scripts/make-corpus")
        }
        var entries: [Entry] = []
        let decoder = JSONDecoder()
        for (number, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
            guard let entry = try? decoder.decode(Entry.self, from: Data(line.utf8)) else {
                throw .enrollment("\(path):\(number + 1): not a label record")
            }
            entries.append(entry)
        }
        self.directory = directory
        self.entries = entries
    }

    public func path(of entry: Entry) -> String {
        (directory as NSString).appendingPathComponent(entry.file)
    }

    /// The entry's audio as the voice stage takes it, or `nil` when it cannot be read (said
    /// through `log`: the evaluation skips the file and goes on).
    public func audio(of entry: Entry, log: (String) -> Void) -> AudioBuffer? {
        do {
            return try VoiceInput.prepare(AudioFileReader.read(path(of: entry)))
        } catch {
            log("skipping \(entry.file): \(error)")
            return nil
        }
    }
}
