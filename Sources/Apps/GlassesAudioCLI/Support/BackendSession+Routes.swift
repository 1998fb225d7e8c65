import BackendSelection
import RouteService
import Routing

extension BackendSession {
    /// The one-shot commands' frame (`record`, `levels`, `play`, `say`): opens the backend the
    /// flags ask for, starts the route engine on it, runs `body`, then lets go of the route (the
    /// glasses go back to the profile they were found on) and closes the backend, printing where
    /// the simulated speaker's output went. Also when `body` throws: its error, passed through
    /// `failure` (as is a failure to start the route engine), is what is thrown; closing is then
    /// best effort.
    static func withRoutes<Result>(
        _ options: BackendOptions, quiet: Bool, configuration: RoutingConfiguration = .init(),
        failure: (any Error) -> any Error = { $0 },
        _ body: (BackendSession, RouteService) async throws -> Result
    ) async throws -> Result {
        let session = try await open(options, quiet: quiet)
        let routes: RouteService
        do {
            routes = try await session.startRouteService(configuration: configuration)
        } catch {
            try? await session.closeAndReport()
            throw failure(error)
        }
        let result: Result
        do {
            result = try await body(session, routes)
        } catch {
            await routes.finish()
            try? await session.closeAndReport()
            throw failure(error)
        }
        await routes.finish()
        try await session.closeAndReport()
        return result
    }
}
