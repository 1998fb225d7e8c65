import Foundation

/// Replaces this process with a fresh start of the same program, with the same arguments and
/// environment (execv of `/proc/self/exe`): the PID stays, so systemd (`NotifyAccess=main`)
/// and a test that started the daemon keep following it. Every descriptor above stderr is
/// marked close-on-exec first, so no socket or lock of the old image survives into the new
/// one, and the signals the old image handled or blocked are given back their defaults.
enum SelfExec {
    static let executable = "/proc/self/exe"

    /// Returns only when execv failed, with the reason.
    static func replace(arguments: [String] = CommandLine.arguments) -> String {
        closeOnExec()
        resetSignals()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        execv(executable, &argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        return reason
    }

    /// FD_CLOEXEC on every open descriptor from 3 up (listed in /proc/self/fd).
    private static func closeOnExec() {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for fd in descriptors where fd > 2 {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// The default action for the signals the service lifecycle took over, and none blocked:
    /// an ignored or blocked signal would stay so across execv.
    private static func resetSignals() {
        for signal in [SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2] { Foundation.signal(signal, SIG_DFL) }
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
    }
}
