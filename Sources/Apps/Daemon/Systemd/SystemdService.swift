import ServiceLifecycle

/// The daemon's side of systemd's watchdog: feeds it at half its timeout until the graceful
/// shutdown, then says STOPPING (RELOADING when the service restarts in place: the same PID
/// says READY again). Last in the group, so it hears the shutdown first.
/// READY is sent once the HTTP server listens (see ``HTTPServer``).
struct SystemdService: Service {
    let notifier: SystemdNotifier
    let interval: Duration?
    let restart: DaemonRestart

    func run() async throws {
        let every = interval ?? notifier.watchdogTimeout.map { $0 / 2 }
        if notifier.isActive, let every {
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                notifier.watchdog()
                do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: every) } } catch { break }
            }
        } else {
            try? await gracefulShutdown()
        }
        if restart.reason != nil { notifier.reloading() } else { notifier.stopping() }
    }
}
