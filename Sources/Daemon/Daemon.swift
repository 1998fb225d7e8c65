import Foundation
public import Logging
public import Prometheus
import ServiceLifecycle
import UnixSignals

/// glasses-audiod's life: open the context, run the services as one ServiceGroup until
/// SIGTERM or SIGINT (graceful: each service lets go of what it holds, in reverse order), then
/// close the backend.
public enum Daemon {
    public static func run(
        _ configuration: DaemonConfiguration, logger: Logger, metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry()
    ) async throws {
        let context = try await DaemonContext.open(configuration, logger: logger, metrics: metrics)
        let services = await DaemonServices.assemble(context)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        logger.info("data directory: \(configuration.dataDirectory) (API key in \(context.apiKey.path))")
        do {
            try await group.run()
        } catch {
            logger.error("stopped on an error: \(error)")
            await context.close()
            throw error
        }
        await context.close()
        logger.info("stopped")
    }
}
