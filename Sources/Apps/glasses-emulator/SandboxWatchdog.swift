import Foundation
import Synchronization

/// A small `sh` that outlives the emulator to clean up after it when it dies without
/// stopping its sandbox (`kill -9` of it or of its whole process group, a crash, a closed
/// terminal). It runs in a process group of its own, apart from the emulator's and the sandbox's.
///
/// It holds the read end of a pipe whose only writer is the emulator (close-on-exec, so the
/// sandbox's daemons do not hold it too). The emulator sends the sandbox's process group
/// once its first daemon started; when the pipe reaches end of file — the emulator has
/// exited, however — the shell sends the group SIGTERM, then SIGKILL after 5 s, and removes
/// the sandbox folder. After a normal stop there is nothing left for it to do.
final class SandboxWatchdog: Sendable {
    private let pid: pid_t
    /// The pipe's write end; -1 once released.
    private let writer: Mutex<Int32>

    init(directory: String) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw SandboxError("cannot make the watchdog's pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let script = """
            trap '' INT TERM HUP
            read group
            read _
            if [ -n "$group" ]; then
              kill -TERM -"$group" 2>/dev/null
              i=0
              while kill -0 -"$group" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
              kill -KILL -"$group" 2>/dev/null
            fi
            rm -rf "$1"
            """
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words: [String] = ["sh", "-c", script, "glasses-emulator-watchdog", directory]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // In a process group of its own: a SIGKILL to the emulator's whole group (a shell's
        // `kill -9 -PGID`, a closed tmux pane) must not take the watchdog with it.
        var attributes = Sandbox.cleanSignalAttributes(flags: POSIX_SPAWN_SETPGROUP)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var child: pid_t = 0
        let result = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environ)
        close(ends[0])
        guard result == 0 else {
            close(ends[1])
            throw SandboxError("cannot start the sandbox's watchdog (/bin/sh): \(String(cString: strerror(result)))")
        }
        pid = child
        writer = Mutex(ends[1])
    }

    /// Tells the watchdog which process group to end if the emulator dies.
    func watch(group: pid_t) {
        let line = "\(group)\n"
        writer.withLock { writer in _ = line.withCString { write(writer, $0, strlen($0)) } }
    }

    /// The sandbox stopped by itself: lets the watchdog go and reaps it.
    func release() {
        let released = writer.withLock { writer in
            defer { writer = -1 }
            return writer
        }
        guard released >= 0 else { return }
        close(released)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
