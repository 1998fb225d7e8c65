import ServiceLifecycle

/// The daemon's side of systemd's watchdog: feeds it at half its timeout until the graceful
/// shutdown, then says STOPPING. Last in the group, so it hears the shutdown first.
/// READY is sent once the HTTP server listens (see ``HTTPServer``).
struct SystemdService: Service {
    let notifier: SystemdNotifier
    let interval: Duration?

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
        notifier.stopping()
    }
}
