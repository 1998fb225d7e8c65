import Foundation
import Synchronization

/// A program under test kept running while the test talks to it: lines typed on its stdin
/// (which stays open, as a terminal's would), signals, and its output so far.
public final class Child: Sendable {
    public let pid: pid_t
    private let input: Mutex<Int32>
    private let out: Collector
    private let err: Collector
    private let peakMemory = Mutex<Int>(0)

    public init(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw TestFailure("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in [inPipe[1], outPipe[0], errPipe[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        pid = try Run.spawn(program, arguments, environment: environment, actions: &actions)
        for fd in [inPipe[0], outPipe[1], errPipe[1]] { close(fd) }
        input = Mutex(inPipe[1])
        out = Collector(outPipe[0])
        err = Collector(errPipe[0])
    }

    /// Writes `text` to the program's stdin, leaving it open.
    public func type(_ text: String) {
        input.withLock { fd in
            guard fd >= 0 else { return }
            _ = text.withCString { write(fd, $0, strlen($0)) }
        }
    }

    /// Closes the program's stdin (end of input).
    public func closeInput() {
        input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    public func signal(_ number: Int32) { kill(pid, number) }

    /// The program's peak resident memory in KiB, once ``finish(hangGuard:)`` returned.
    public var peakMemoryKiB: Int { peakMemory.withLock { $0 } }

    /// Waits (at most about 10 s) until stderr holds `text`; false if it never did or the
    /// program ended first.
    public func waitForError(_ text: String) -> Bool {
        Poll.until({ err.text.contains(text) }, giveUpIf: { err.ended })
    }

    /// Everything written to stdout so far.
    public var stdoutSoFar: String { out.text }
    /// Everything written to stderr so far.
    public var stderrSoFar: String { err.text }

    /// Waits (at most about 10 s) until stdout holds `text`; false if it never did or the
    /// program ended first.
    public func waitForOutput(_ text: String) -> Bool {
        Poll.until({ out.text.contains(text) }, giveUpIf: { out.ended })
    }

    /// Waits for the program to end, with a hang guard: a program still running after
    /// `hangGuard` is killed with SIGKILL, and the result says so (status 137). Closes stdin
    /// afterwards, so a program that waits for end of input shows as hung.
    public func finish(hangGuard: Duration = .seconds(60)) -> Run.Output {
        let deadline = ContinuousClock.now + hangGuard
        var code: Int32 = 0
        while true {
            var raw: Int32 = 0
            var usage = rusage()
            let result = wait4(pid, &raw, WNOHANG, &usage)
            if result == pid {
                peakMemory.withLock { $0 = usage.ru_maxrss }
                let signal = raw & 0x7f
                code = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
                break
            }
            if result < 0 && errno != EINTR { break }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                code = Run.wait(for: pid)
                break
            }
            usleep(20_000)
        }
        closeInput()
        return Run.Output(status: code, stdout: out.finish(), stderr: err.finish())
    }

    /// Reads a descriptor to its end on a thread of its own, keeping what arrived so far.
    final class Collector: Sendable {
        private let data = Mutex((bytes: Data(), ended: false))
        private let done = DispatchSemaphore(value: 0)

        init(_ fd: Int32) {
            Thread.detachNewThread { [self] in
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    data.withLock { $0.bytes.append(contentsOf: chunk[0..<count]) }
                }
                close(fd)
                data.withLock { $0.ended = true }
                done.signal()
            }
        }

        var text: String { data.withLock { String(decoding: $0.bytes, as: UTF8.self) } }
        var ended: Bool { data.withLock { $0.ended } }

        func finish() -> String {
            done.wait()
            return text
        }
    }
}
