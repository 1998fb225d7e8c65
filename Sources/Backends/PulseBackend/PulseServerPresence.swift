import Foundation

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
                switch UnixSocketProbe.connect(path: path) {
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

/// One `connect(2)` to a Unix stream socket, closed at once.
enum UnixSocketProbe {
    enum Outcome: Equatable {
        case accepted
        case refused(String)
    }

    static func connect(path: String) -> Outcome {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return .refused("the path is longer than a socket address holds") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .refused("socket(): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == 0 { return .accepted }
        let code = errno
        switch code {
        case ENOENT: return .refused("no socket")
        case ECONNREFUSED: return .refused("nothing listens (connection refused)")
        default: return .refused(String(cString: strerror(code)))
        }
    }
}
