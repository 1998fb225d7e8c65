import Foundation
import Logging
public import Prometheus
import ServiceLifecycle
import UnixSignals

/// glasses-audiod's life: open the context, run the services as one ServiceGroup until
/// SIGTERM, SIGINT or SIGQUIT (graceful: each service lets go of what it holds, in reverse order), then
/// close the backend. A restart asked for while it runs (``DaemonRestart``) drains the same way,
/// then starts the same program again in this process (``SelfExec``); if that fails it exits
/// with ``restartExitStatus``, which the sample unit's `Restart=on-failure` restarts.
public enum Daemon {
    /// The exit status when a restart was asked for but the program could not be started
    /// again in place (EX_TEMPFAIL, sysexits.h).
    public static let restartExitStatus: Int32 = 75

    public static func run(
        _ configuration: DaemonConfiguration, loggers: DaemonLoggers, metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry()
    ) async throws {
        let logger = loggers.daemon
        let context = try await DaemonContext.open(configuration, loggers: loggers, metrics: metrics)
        let services = await DaemonServices.assemble(context)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                // SIGQUIT too: Swift's crash handler would otherwise report "Program crashed" and
                // leave the daemon serving.
                gracefulShutdownSignals: [.sigterm, .sigint, .sigquit],
                logger: logger))
        context.restart.attach(group)
        logger.info("data directory: \(configuration.dataDirectory) (API key in \(context.apiKey.path))")
        do {
            try await group.run()
        } catch {
            await context.close()
            if ListenError.isListenFailure(error) {
                throw DaemonError(
                    ListenError.describe(
                        error, what: "the HTTP API", host: configuration.bind, port: configuration.httpPort, flag: "--http-port"))
            }
            logger.error("stopped on an error: \(error)")
            throw error
        }
        await context.close()
        guard let reason = context.restart.reason else {
            logger.info("stopped")
            return
        }
        logger.notice("restarting the service (\(reason)): \(CommandLine.arguments.joined(separator: " "))")
        let failure = SelfExec.replace()
        throw DaemonError("the service could not start again (\(SelfExec.executable): \(failure)); exiting with \(restartExitStatus)", exitStatus: restartExitStatus)
    }
}
