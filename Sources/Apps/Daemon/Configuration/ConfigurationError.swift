/// A configuration value that cannot be used: which key, where it came from, what it was,
/// and what is allowed.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public var key: String
    public var source: ConfigurationSource
    public var value: String
    public var allowed: String

    public var description: String {
        "\(source.describe(key)): '\(value.prefix(80))' is not allowed; allowed: \(allowed)"
    }
}

/// Where a configuration value was given.
public enum ConfigurationSource: Sendable, Equatable {
    case file(String)
    case environment
    case flag

    func describe(_ key: String) -> String {
        switch self {
        case .file(let path): "\(key) in \(path)"
        case .environment: ConfigurationKey.named(key)?.environmentName ?? key
        case .flag: "--\(key)"
        }
    }
}
