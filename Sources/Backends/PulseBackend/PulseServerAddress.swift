import Foundation

/// Where a PulseAudio client would look for the server, as libpulse resolves it: the server
/// string given (`--server`), else `PULSE_SERVER`, else the user's runtime socket
/// (`PULSE_RUNTIME_PATH/native`, `XDG_RUNTIME_DIR/pulse/native`), then the system instance's
/// (`/run/pulse/native`). A server string may list several addresses, separated by spaces;
/// `{machine-id}` prefixes are dropped.
public enum PulseServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// A Unix socket at this path (`unix:PATH` or a bare absolute path).
    case unixSocket(String)
    /// Anything reached through the protocol only (`tcp:host:port`, `tcp6:`, a host name).
    case other(String)

    public var description: String {
        switch self {
        case .unixSocket(let path): path
        case .other(let address): address
        }
    }

    /// The addresses to try, in libpulse's order.
    public static func candidates(server: String?, environment: [String: String]) -> [PulseServerAddress] {
        if let server = nonEmpty(server) ?? nonEmpty(environment["PULSE_SERVER"]) {
            return server.split(separator: " ").map { parse(String($0)) }
        }
        var paths: [String] = []
        if let runtime = nonEmpty(environment["PULSE_RUNTIME_PATH"]) {
            paths.append(runtime + "/native")
        } else if let xdg = nonEmpty(environment["XDG_RUNTIME_DIR"]) {
            paths.append(xdg + "/pulse/native")
        }
        paths.append("/run/pulse/native")
        return paths.map(PulseServerAddress.unixSocket)
    }

    static func parse(_ word: String) -> PulseServerAddress {
        var word = Substring(word)
        if word.hasPrefix("{"), let close = word.firstIndex(of: "}") { word = word[word.index(after: close)...] }
        if word.hasPrefix("unix:") { return .unixSocket(String(word.dropFirst("unix:".count))) }
        if word.hasPrefix("/") { return .unixSocket(String(word)) }
        return .other(String(word))
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return value
    }
}
