import Foundation
import Yams

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
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigurationFileError("cannot read the configuration file \(path): \(error.localizedDescription)")
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw ConfigurationFileError("\(path) is not valid YAML: \(error)")
        }
        guard let node else { return [] }  // an empty file sets nothing
        guard let mapping = node.mapping else {
            throw ConfigurationFileError("\(path) must be a mapping of settings (key: value), e.g. 'http-port: 8742'")
        }
        return try mapping.map { key, value in
            guard let name = key.scalar?.string else { throw ConfigurationFileError("\(path): a key that is not text") }
            guard let scalar = value.scalar else {
                throw ConfigurationError(
                    key: name, source: .file(path), value: "(a list or mapping)",
                    allowed: ConfigurationKey.named(name)?.allowed ?? "a single value")
            }
            return (name, scalar.string)
        }
    }
}

/// A configuration file that cannot be read as settings.
public struct ConfigurationFileError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
