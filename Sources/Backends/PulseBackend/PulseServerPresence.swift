import Foundation
import UnixSockets

/// Whether a PulseAudio server is there, decided by state, not by how fast it answers: a
/// server whose Unix socket accepts a connection is present, however long it then takes to
/// speak the protocol (a loaded machine, a VM under emulation); nothing listening at any
/// candidate socket means none is. Only addresses that are not Unix sockets (`tcp:…`) are
/// probed through the protocol, with the caller's timeout.
public enum PulseServerPresence: Sendable, Equatable {
    /// The socket at this path accepted a connection.
    case listening(String)
    /// A non-socket address answered the protocol.
    case answered(String)
    /// No candidate has a server: why, in words.
    case absent(String)

    public var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }
}

extension PulseAudioBackend {
    /// Looks for a server at `server` (or where libpulse would look); never spawns one.
    public static func presence(
        server: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        protocolTimeout: Duration = .seconds(5)
    ) async -> PulseServerPresence {
        var misses: [String] = []
        for candidate in PulseServerAddress.candidates(server: server, environment: environment) {
            switch candidate {
            case .unixSocket(let path):
                switch UnixSocket.connect(path: path) {
                case .accepted: return .listening(path)
                case .refused(let why): misses.append("\(path): \(why)")
                }
            case .other(let address):
                if await serverAnswers(server: address, timeout: protocolTimeout) { return .answered(address) }
                misses.append("\(address): no answer within \(protocolTimeout)")
            }
        }
        return .absent(misses.joined(separator: "; "))
    }
}
