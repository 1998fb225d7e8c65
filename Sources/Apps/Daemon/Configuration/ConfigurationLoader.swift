import DeviceProfiles
import Foundation

/// Builds a ``DaemonConfiguration`` from its sources: defaults, the YAML file, the
/// environment, the flags, in that order (later wins). Pure but for reading the file.
public struct ConfigurationLoader: Sendable {
    public var environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// - Parameters:
    ///   - file: YAML file (`nil`: `GLASSES_AUDIOD_CONFIG`, else none).
    ///   - flags: values given as flags, by key name.
    public func load(file: String? = nil, flags: [String: String] = [:]) throws -> DaemonConfiguration {
        var configuration = DaemonConfiguration(dataDirectory: DaemonConfiguration.defaultDataDirectory(environment: environment))
        if let path = file ?? environment["GLASSES_AUDIOD_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            for (key, value) in try Self.readFile(path) { try apply(key, value, from: .file(path), to: &configuration) }
        }
        for key in ConfigurationKey.all {
            if let value = environment[key.environmentName] { try apply(key.name, value, from: .environment, to: &configuration) }
        }
        for key in ConfigurationKey.all {
            if let value = flags[key.name] { try apply(key.name, value, from: .flag, to: &configuration) }
        }
        return configuration
    }

    func apply(_ name: String, _ value: String, from source: ConfigurationSource, to configuration: inout DaemonConfiguration) throws {
        guard let key = ConfigurationKey.named(name) else {
            throw ConfigurationError(
                key: name, source: source, value: value,
                allowed: "no such setting; the settings are " + ConfigurationKey.all.map(\.name).joined(separator: ", "))
        }
        guard key.apply(&configuration, value) else {
            throw ConfigurationError(key: name, source: source, value: value, allowed: key.allowed)
        }
    }

    /// The file's settings as text, in file order: a YAML mapping of scalars.
    static func readFile(_ path: String) throws -> [(String, String)] {
        let pairs: [(key: String, value: String?)]
        do throws(YAMLTextError) { pairs = try YAMLText.settings(try YAMLText.read(path), name: path) } catch {
            throw ConfigurationFileError("configuration file: \(error)")
        }
        return try pairs.map { name, value in
            guard let value else {
                throw ConfigurationError(
                    key: name, source: .file(path), value: "(a list or mapping)",
                    allowed: ConfigurationKey.named(name)?.allowed ?? "a single value")
            }
            return (name, value)
        }
    }
}

/// A configuration file that cannot be read as settings.
public struct ConfigurationFileError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
