import Foundation
import Synchronization
import TestKit

/// What systemd listens on for sd_notify: a datagram socket at a path; keeps every message
/// received, read on a thread of its own.
final class NotifySocket: Sendable {
    let path: String
    private let fd: Int32
    private let messages = Mutex<[String]>([])

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw TestFailure("bind \(path): \(String(cString: strerror(errno)))") }
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                messages.withLock { $0.append(text) }
            }
        }
    }

    var received: [String] { messages.withLock { $0 } }

    /// Waits (about 10 s at most) for a message holding `text`.
    func waitFor(_ text: String) -> Bool { Poll.until { received.contains { $0.contains(text) } } }

    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        Foundation.close(fd)
        unlink(path)
    }
}
