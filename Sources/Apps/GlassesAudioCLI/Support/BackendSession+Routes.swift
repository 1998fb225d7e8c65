import AudioBackend
import BackendSelection
import Logging
import RouteService
import Routing

extension BackendSession {
    /// How a one-shot command lets go of the routes.
    enum RoutesEnding {
        /// Every session ends and the glasses go back to the profile they were found on
        /// (``RouteService/finish()``): for commands that open a route of their own.
        case restoringProfiles
        /// The loop stops and the profiles stay as they are (``RouteService/shutdown()``): for
        /// commands that only watch, or whose point is the profile they set.
        case keepingProfiles
    }

    /// The one-shot commands' frame (`record`, `levels`, `play`, `say`, `monitor`, `profile`):
    /// opens the backend the flags ask for, starts the route engine on it (after `beforeStart`,
    /// where a watcher subscribes so it misses nothing of the start), runs `body`, then lets go
    /// of the routes as `ending` says and closes the backend, printing where the simulated
    /// speaker's output went. Also when `body` throws: its error, passed through `failure`, is
    /// what is thrown; closing is then best effort. A failure to start the route engine goes
    /// through `startFailure` (given the backend's name) when there is one, else `failure`.
    static func withRoutes<Result>(
        _ options: BackendOptions, quiet: Bool, configuration: RoutingConfiguration = .init(),
        ending: RoutesEnding = .restoringProfiles,
        failure: (any Error) -> any Error = { $0 },
        startFailure: ((any Error, _ backendName: String) -> any Error)? = nil,
        beforeStart: (BackendSession, RouteService) async -> Void = { _, _ in },
        _ body: (BackendSession, RouteService) async throws -> Result
    ) async throws -> Result {
        let session = try await open(options, quiet: quiet)
        let routes = RouteService(
            backend: session.backend, configuration: configuration, clock: session.clock,
            logger: Logger(label: "route", factory: { _ in SwiftLogNoOpLogHandler() }))
        await beforeStart(session, routes)
        do {
            try await routes.start()
        } catch {
            await routes.shutdown()
            try? await session.closeAndReport()
            throw startFailure?(error, session.backend.name) ?? failure(error)
        }
        let result: Result
        do {
            result = try await body(session, routes)
        } catch {
            await routes.end(ending)
            try? await session.closeAndReport()
            throw failure(error)
        }
        await routes.end(ending)
        try await session.closeAndReport()
        return result
    }
}

extension RouteService {
    fileprivate func end(_ ending: BackendSession.RoutesEnding) async {
        switch ending {
        case .restoringProfiles: await finish()
        case .keepingProfiles: await shutdown()
        }
    }
}
