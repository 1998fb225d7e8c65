import Foundation

/// Unix-domain socket addresses and the two one-shot uses the project has for them: probing
/// whether a stream socket takes a connection (the sound server's, the emulator's daemon's), and
/// sending one datagram (sd_notify). A path starting with `@` names the abstract namespace.
public enum UnixSocket {
    /// What one `connect(2)` found.
    public enum Outcome: Equatable, Sendable {
        case accepted
        case refused(String)
    }

    /// One `connect(2)` to the stream socket at `path`, closed at once.
    public static func connect(path: String) -> Outcome {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .refused("socket(): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let result = withAddress(path) { address, length in Foundation.connect(descriptor, address, length) }
        guard let result else { return .refused("the path is longer than a socket address holds") }
        if result == 0 { return .accepted }
        let code = errno
        switch code {
        case ENOENT: return .refused("no socket")
        case ECONNREFUSED: return .refused("nothing listens (connection refused)")
        default: return .refused(String(cString: strerror(code)))
        }
    }

    /// Sends `message` as one datagram to the socket at `path`; whether all of it went.
    public static func sendDatagram(_ message: String, to path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(message.utf8)
        let sent = withAddress(path) { address, length in sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), address, length) }
        return sent == bytes.count
    }

    /// Calls `body` with the `sockaddr_un` for `path` and its length; `nil` when the path is too
    /// long for one.
    static func withAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // An abstract name is exactly its bytes; a path is NUL-terminated (sun_path starts zeroed).
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
