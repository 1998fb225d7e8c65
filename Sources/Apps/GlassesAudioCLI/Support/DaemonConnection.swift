import ArgumentParser
import Foundation

/// How the commands that talk to a running glasses-audiod find it: its address and its API
/// key (the key file in its data directory, or `$GLASSES_AUDIOD_API_KEY`).
struct DaemonConnection: ParsableArguments {
    @Option(help: ArgumentHelp("glasses-audiod's address (default: $GLASSES_AUDIOD_URL, else http://127.0.0.1:8742).", valueName: "url"))
    var url: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "The daemon's data directory, which holds its api_key (default: $GLASSES_AUDIOD_DATA_DIR, else the daemon's default).",
        valueName: "dir"))
    var dataDir: String?

    func validate() throws {
        if let url, !Self.isHTTPAddress(url) {
            throw ValidationError("--url '\(url)' is not an http:// address, e.g. http://127.0.0.1:8742")
        }
    }

    static func isHTTPAddress(_ text: String) -> Bool {
        URL(string: text)?.host != nil && (text.hasPrefix("http://") || text.hasPrefix("https://"))
    }

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    var baseURL: String {
        let value = url ?? environment["GLASSES_AUDIOD_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "http://127.0.0.1:8742"
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    /// The daemon's data directory as the daemon picks it (`$STATE_DIRECTORY`,
    /// `$XDG_DATA_HOME/glasses-audiod`, `~/.local/share/glasses-audiod`).
    var dataDirectory: String {
        if let dataDir { return dataDir }
        if let value = environment["GLASSES_AUDIOD_DATA_DIR"], !value.isEmpty { return value }
        if let state = environment["STATE_DIRECTORY"], !state.isEmpty { return String(state.split(separator: ":")[0]) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/glasses-audiod" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/glasses-audiod"
    }

    /// The API key, or an error saying where it was looked for.
    func apiKey() throws -> String {
        if let key = environment["GLASSES_AUDIOD_API_KEY"], !key.isEmpty { return key }
        let path = dataDirectory + "/api_key"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CLIError("no API key: \(path) cannot be read (give --data-dir, or set GLASSES_AUDIOD_API_KEY)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A client for the daemon at ``baseURL``; an address from `$GLASSES_AUDIOD_URL` that is
    /// no http:// address is an error that says so.
    func client() throws -> DaemonClient {
        let base = baseURL
        guard Self.isHTTPAddress(base) else {
            throw CLIError("$GLASSES_AUDIOD_URL '\(base)' is not an http:// address, e.g. http://127.0.0.1:8742: correct it, or give --url")
        }
        return DaemonClient(baseURL: base, key: try apiKey())
    }
}
