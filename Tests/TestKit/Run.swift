import Foundation

/// Runs programs for tests: the project's own binaries and system tools.
///
/// Built on `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose
/// `waitUntilExit` can miss a child's exit while another long-lived child (a test's
/// pulseaudio daemon) is running.
public enum Run {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `program` (searched on PATH) and returns its status and output.
    @discardableResult
    public static func command(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        let pid = try spawn(program, arguments, environment: environment, actions: &actions)
        close(outPipe[1])
        close(errPipe[1])
        let errReader = Reader(errPipe[0])
        let out = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true).readDataToEndOfFile()
        let err = errReader.finish()
        return Output(status: wait(for: pid), stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    /// Starts `program` in the background with its output sent to `logPath`; returns its pid.
    public static func background(_ program: String, _ arguments: [String], environment: [String: String] = [:], logPath: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        return try spawn(program, arguments, environment: environment, actions: &actions)
    }

    /// Starts a daemon (``background(_:_:environment:logPath:)``) and waits until `ready` says
    /// it serves; one that exits first or never gets ready is stopped, and the error carries
    /// the tail of its log.
    public static func daemon(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], logPath: String, ready: () -> Bool
    ) throws -> pid_t {
        let pid = try background(program, arguments, environment: environment, logPath: logPath)
        var exited = false
        if Poll.until(ready, giveUpIf: { exited = hasExited(pid); return exited }) { return pid }
        if !exited {
            kill(pid, SIGTERM)
            wait(for: pid)
        }
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        throw TestFailure("\(program) did not start: \(log.suffix(800))")
    }

    /// Waits for `pid` to exit and returns its exit status (128 + signal when killed).
    @discardableResult
    public static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    static func spawn(
        _ program: String, _ arguments: [String], environment: [String: String], actions: inout posix_spawn_file_actions_t
    ) throws -> pid_t {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        for (key, value) in environment where value.isEmpty { env.removeValue(forKey: key) }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The child starts with no signals blocked and default handlers: the test runner's
        // threads block SIGTERM and others, and a spawned daemon would inherit that mask.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw TestFailure("cannot run \(program): \(String(cString: strerror(result)))") }
        return pid
    }

    /// Like ``command(_:_:environment:)`` but throws unless the program exits 0.
    public static func checked(_ program: String, _ arguments: [String]) throws {
        let result = try command(program, arguments)
        guard result.status == 0 else {
            throw TestFailure("\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
    }

    /// The path of one of this package's executables in the build folder.
    public static func productPath(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
        var directory = bundle.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath + "/.build/debug/\(name)"
    }

    /// Reads a descriptor to its end on a thread of its own.
    final class Reader: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ fd: Int32) {
            Thread.detachNewThread { [self] in
                data = FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
                done.signal()
            }
        }

        func finish() -> Data {
            done.wait()
            return data
        }
    }
}

/// A failure in test set-up, with what went wrong.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
