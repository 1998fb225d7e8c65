import Foundation
public import Logging

/// swift-log to stderr, one line per message. Under systemd (`$JOURNAL_STREAM` set) each line
/// starts with its syslog priority (`<6>`), which journald reads as the level, and carries no
/// timestamp (the journal adds its own); elsewhere a UTC timestamp and the level lead.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let journald: Bool

    public init(label: String, level: Logger.Level, journald: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil) {
        self.label = label
        logLevel = level
        self.journald = journald
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = "\(label): \(event.message)\(fields)"
        let line = journald
            ? "<\(Self.priority(event.level))>\(text)\n"
            : "\(UTCTimestamp.text(secondsSince1970: Date().timeIntervalSince1970)) \(event.level) \(text)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// syslog priorities, as sd-daemon(3) prefixes take them.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
