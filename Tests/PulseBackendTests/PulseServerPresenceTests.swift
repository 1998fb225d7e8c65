import Foundation
import TestKit
import Testing
@testable import PulseBackend

/// Backend auto-detection decides "is a server there" by state: a socket that accepts is a
/// server, however slowly it then speaks (under load, a 1 s protocol probe used to lose a real
/// server to the simulator).
@Suite("PulseAudio server presence", .oneAtATime)
struct PulseServerPresenceTests {
    @Test("candidates follow libpulse: the server given, PULSE_SERVER, the runtime socket, the system socket")
    func candidates() {
        #expect(PulseServerAddress.candidates(server: "unix:/a/native", environment: ["PULSE_SERVER": "/b"]) == [.unixSocket("/a/native")])
        #expect(PulseServerAddress.candidates(server: nil, environment: ["PULSE_SERVER": "{abc}unix:/b tcp:host:4713"])
            == [.unixSocket("/b"), .other("tcp:host:4713")])
        #expect(PulseServerAddress.candidates(server: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/7"])
            == [.unixSocket("/run/user/7/pulse/native"), .unixSocket("/run/pulse/native")])
        #expect(PulseServerAddress.candidates(server: " ", environment: ["PULSE_RUNTIME_PATH": "/p", "XDG_RUNTIME_DIR": "/x"])
            == [.unixSocket("/p/native"), .unixSocket("/run/pulse/native")])
    }

    @Test("a server that accepts but has not answered yet is present (a slow server is not replaced by the simulator)")
    func silentServerIsPresent() async throws {
        let directory = try temporaryDirectory()
        let path = directory + "/native"
        let listener = try ListeningSocket(path: path)
        defer { listener.close() }
        let presence = await PulseAudioBackend.presence(server: "unix:\(path)", environment: [:])
        #expect(presence == .listening(path))
    }

    @Test("a socket nobody listens on, and no socket at all, are absent, and the reason says which")
    func absent() async throws {
        let directory = try temporaryDirectory()
        let stale = directory + "/stale"
        ListeningSocket.makeStale(path: stale)
        let presence = await PulseAudioBackend.presence(server: "unix:\(stale) unix:\(directory)/none", environment: [:])
        guard case .absent(let why) = presence else { Issue.record("expected absent, got \(presence)"); return }
        #expect(why.contains("\(stale): nothing listens"))
        #expect(why.contains("\(directory)/none: no socket"))
    }

    func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("presence-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}

/// A Unix stream socket bound at a path and listening; it accepts (the kernel's backlog) and never answers.
private struct ListeningSocket {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = Self.bound(path: path)
        guard descriptor >= 0, listen(descriptor, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    func close() { _ = Foundation.close(descriptor) }

    /// Binds and closes: the socket file stays, nothing listens.
    static func makeStale(path: String) {
        let descriptor = bound(path: path)
        if descriptor >= 0 { _ = Foundation.close(descriptor) }
    }

    private static func bound(path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0 ? descriptor : -1
    }
}
