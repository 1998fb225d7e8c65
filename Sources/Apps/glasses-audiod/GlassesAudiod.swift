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
        // A fixed mmap threshold (setting it turns glibc's sliding one off): every block of
        // 256 KiB or more (a Wyoming payload's buffer, a decoded file) is its own mapping and
        // goes back to the kernel when freed, instead of staying in an arena as RSS that grows
        // with each round of big messages.
        _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024)
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
