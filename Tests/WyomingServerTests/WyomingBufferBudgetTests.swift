import Foundation
import Logging
import Testing
import TestKit
import Wyoming
import WyomingServer

/// Clients that declare big payloads, send most of them and close: the server's own
/// accounting stays under its budget while they send, and returns to zero once they are gone.
/// Real TCP connections on loopback to a real server.
@Suite("Wyoming buffer budget", .oneAtATime)
struct WyomingBufferBudgetTests {
    /// A raw TCP client (POSIX sockets: what a hostile client would use).
    final class RawClient {
        let descriptor: Int32

        init(port: Int) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw TestFailure("connect: \(String(cString: strerror(errno)))") }
        }

        /// Sends what it can of `bytes`; false once the server closed the connection.
        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            var done = 0
            while done < bytes.count {
                let count = bytes[done...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count <= 0 { return false }
                done += count
            }
            return true
        }

        /// What the server sent until it closed or `seconds` passed.
        func received(seconds: Int = 5) -> String {
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var data = [UInt8]()
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                data += chunk[0..<count]
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// Whether the server has answered or closed this connection (without waiting).
        var heardBack: Bool {
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }

        deinit { close(descriptor) }
    }

    static func header(payload: Int) -> [UInt8] {
        Array(#"{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 1}, "payload_length": \#(payload)}"#.utf8) + [10]
    }

    /// Waits (polling, no clock assertion) until `condition` holds, up to about 10 s.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    static func start(budget: Int, payload: Int, allowed: WyomingPeerFilter? = nil) async throws -> (WyomingServer, Task<Void, any Error>) {
        let server = try await WyomingServer.bind(
            configuration: WyomingServerConfiguration(
                port: 0, limits: .init(payload: payload), bufferBudget: budget, allowedPeers: allowed),
            wake: nil, logger: Logger(label: "wyoming-budget-test"))
        return (server, Task { try await server.run() })
    }

    @Test("20 clients declaring 1 MiB each, sending 90 %: the total held stays under a 4 MiB budget, the clients over it hear server-busy; after close, nothing is held", arguments: [1, 2, 3])
    func manyBigPayloadsThenClose(round: Int) async throws {
        let budget = 4 << 20
        let (server, task) = try await Self.start(budget: budget, payload: 1 << 20)
        defer { task.cancel() }
        var clients: [RawClient] = []
        var peak = 0
        for _ in 0..<20 {
            let client = try RawClient(port: server.port)
            client.send(Self.header(payload: 1 << 20))
            client.send([UInt8](repeating: 0x11, count: 900 * 1024))
            clients.append(client)
            peak = max(peak, server.bufferedBytes)
        }
        // Settled when every client is either refused (it hears server-busy, then the close) or
        // held whole (the 900 KiB it sent; its header too, unless the decoder has dropped the
        // bytes it parsed): a state, not a pause in the total, which a busy machine can make.
        let header = Self.header(payload: 1 << 20).count
        let settled = try await Self.eventually {
            let held = server.bufferedBytes
            peak = max(peak, held)
            let admitted = clients.count - clients.filter(\.heardBack).count
            return held >= admitted * 900 * 1024 && held <= admitted * (header + 900 * 1024)
        }
        #expect(settled, "held \(server.bufferedBytes) bytes; \(clients.filter(\.heardBack).count) clients heard back")
        #expect(peak <= budget, "held \(peak) bytes, budget \(budget)")
        #expect(peak >= 3 * 900 * 1024, "the budget let only \(peak) bytes in")
        let refused = clients.filter(\.heardBack).count
        let answers = clients.map { $0.received(seconds: 1) }
        let busy = answers.filter { $0.contains("server-busy") }
        #expect(busy.count >= 15, "\(busy.count) clients were refused")
        // Every client the server closed heard why, though its input was still arriving.
        #expect(busy.count == refused, "\(refused) clients were closed, \(busy.count) heard server-busy: \(answers)")
        clients.removeAll()
        #expect(try await Self.eventually { server.bufferedBytes == 0 }, "still held after close: \(server.bufferedBytes)")
    }

    @Test("a client refused for the budget does not stop the others: a ping after the big ones close is answered")
    func serviceGoesOn() async throws {
        let (server, task) = try await Self.start(budget: 1 << 20, payload: 2 << 20)
        defer { task.cancel() }
        do {
            // 1.5 MiB of a 2 MiB payload: over the 1 MiB budget whatever the decoder keeps.
            let big = try RawClient(port: server.port)
            big.send(Self.header(payload: 2 << 20))
            big.send([UInt8](repeating: 0, count: 3 << 19))
            #expect(big.received(seconds: 2).contains("server-busy"))
        }
        #expect(try await Self.eventually { server.bufferedBytes == 0 })
        let client = try RawClient(port: server.port)
        client.send(Array(#"{"type": "ping", "data": {"text": "still here"}}"#.utf8) + [10])
        shutdown(client.descriptor, Int32(SHUT_WR))
        #expect(client.received().contains("still here"))
    }

    @Test("an allow-list closes other peers at once and serves the listed ones")
    func allowList() async throws {
        let (refusing, refusingTask) = try await Self.start(budget: 1 << 20, payload: 1 << 16, allowed: WyomingPeerFilter("10.0.0.0/8"))
        defer { refusingTask.cancel() }
        let outsider = try RawClient(port: refusing.port)
        outsider.send(Array(#"{"type": "ping"}"#.utf8) + [10])
        #expect(outsider.received(seconds: 5).isEmpty)
        let (serving, servingTask) = try await Self.start(budget: 1 << 20, payload: 1 << 16, allowed: WyomingPeerFilter("192.168.1.20, 127.0.0.0/8"))
        defer { servingTask.cancel() }
        let insider = try RawClient(port: serving.port)
        insider.send(Array(#"{"type": "ping"}"#.utf8) + [10])
        shutdown(insider.descriptor, Int32(SHUT_WR))
        #expect(insider.received().contains("pong"))
    }

    @Test("peer filters: addresses, networks, IPv4-mapped IPv6; bad entries refused")
    func peerFilterParsing() throws {
        let filter = try #require(WyomingPeerFilter("192.168.1.20, 10.0.0.0/8, fd00::/8"))
        #expect(filter.allows("192.168.1.20") && !filter.allows("192.168.1.21"))
        #expect(filter.allows("10.200.3.4") && !filter.allows("11.0.0.1"))
        #expect(filter.allows("::ffff:10.1.2.3") && filter.allows("fd12::1") && !filter.allows("fe80::1"))
        #expect(!filter.allows(nil) && !filter.allows("not an address"))
        for bad in ["", "10.0.0.0/33", "host.example", "10.0.0.1/x", "1.2.3.4/8/9"] { #expect(WyomingPeerFilter(bad) == nil, "\(bad)") }
    }

    @Test("the budget: shares grow only within the limit, shrink always, release gives everything back")
    func budgetAccounting() {
        let budget = WyomingBufferBudget(limit: 100)
        var first = 0, second = 0
        #expect(budget.resize(&first, to: 60))
        #expect(!budget.resize(&second, to: 50) && second == 0)
        #expect(budget.resize(&second, to: 40) && budget.heldBytes == 100)
        #expect(budget.resize(&first, to: 10) && budget.heldBytes == 50)
        budget.release(&first)
        budget.release(&second)
        #expect(budget.heldBytes == 0 && first == 0 && second == 0)
    }
}
