import AudioCore
import Foundation

/// A progress line on stderr for long captures: redrawn in place on a terminal, a line a
/// second otherwise, nothing when disabled.
struct ProgressLine {
    let total: Double
    let enabled: Bool
    private let interactive = isatty(STDERR_FILENO) == 1
    private var lastPrinted = -1.0

    init(total: Double, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    mutating func update(done: Double, level: AudioLevel) {
        guard enabled else { return }
        // Off a terminal, a line as each whole second is reached (whatever the frames' length).
        if !interactive && done.rounded(.down) <= lastPrinted.rounded(.down) { return }
        lastPrinted = done
        let line = String(format: "  %5.1f / %.1f s  rms %6.1f dBFS [%@]", done, total, level.rmsDBFS,
                          LevelMeter.bar(dBFS: level.rmsDBFS, width: 20))
        FileHandle.standardError.write(Data(((interactive ? "\r" : "") + line + (interactive ? "" : "\n")).utf8))
    }

    func finish() {
        if enabled && interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
