import Foundation

/// Lines in and out of the emulator's terminal without stdio's locks.
///
/// `readLine()` holds the `stdin` FILE lock while it blocks in `read`, and `fflush(nil)`
/// takes every FILE's lock: a `status` printed while the reader waited hung the emulator for
/// good (issue 12). Here input is read from descriptor 0 and output written to descriptor 1
/// with plain `read`/`write`, so neither side can wait on the other.
enum ConsoleIO {
    /// Writes `line` and a newline to stdout in one `write`.
    static func printLine(_ line: String) {
        writeAll(Data((line + "\n").utf8), to: STDOUT_FILENO)
    }

    /// Writes `line` and a newline to stderr.
    static func printError(_ line: String) {
        writeAll(Data((line + "\n").utf8), to: STDERR_FILENO)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed terminal: nothing left to tell
                }
                offset += written
            }
        }
    }

    /// The lines of stdin, trimmed, read on a thread of their own; finishes at end of input.
    static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                var pending = Data()
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress!, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    pending.append(contentsOf: chunk[0..<count])
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        continuation.yield(line.trimmingCharacters(in: .whitespaces))
                    }
                }
                if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self).trimmingCharacters(in: .whitespaces)) }
                continuation.finish()
            }
            thread.start()
        }
    }
}
