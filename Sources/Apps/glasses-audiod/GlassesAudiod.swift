import ArgumentParser
import CMalloc
import Daemon
import Foundation
import Logging
import Metrics
import Prometheus

/// `glasses-audiod`: parses, builds, runs (the work is in the Daemon library).
@main
struct GlassesAudiod: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glasses-audiod",
        abstract: "The GlassesAudio service: routes, the listening assistant, settings, history, and the APIs.",
        discussion: "Settings come from defaults, then --config FILE (YAML, keys as the flags' names), then GLASSES_AUDIOD_* "
            + "variables, then flags; later wins. SIGTERM or SIGINT stops it gracefully. The companion app's \"restart\" "
            + "drains the same way and starts it again in place (exit status 75 if that fails).",
        version: DaemonContext.version)

    @OptionGroup var options: DaemonOptions

    func run() async throws {
        glasses_service_malloc_settings()  // the mmap threshold and the arenas (CMalloc/shim.h)
        let configuration: DaemonConfiguration
        do {
            configuration = try ConfigurationLoader().load(file: options.configFile, flags: options.values)
        } catch {
            FileHandle.standardError.write(Data("glasses-audiod: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let level = configuration.logLevel
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level) }
        let loggers = DaemonLoggers { Logger(label: $0) }
        let logger = loggers.daemon
        let metrics = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics))
        do {
            try await Daemon.run(configuration, loggers: loggers, metrics: metrics)
        } catch {
            logger.critical("\(error)")
            throw ExitCode((error as? DaemonError)?.exitStatus ?? 1)
        }
    }
}
