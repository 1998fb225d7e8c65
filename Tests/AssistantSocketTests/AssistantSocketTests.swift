import Assistant
import AssistantSocket
import AudioCore
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import Testing
import TestKit

/// A real Hummingbird server with `/api/assistant`, and a Python backend on `websockets`.
private struct SocketServer {
    let hub: AssistantSocketHub
    let port: Int
    let task: Task<Void, any Error>

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func start() async throws -> SocketServer {
        let hub = AssistantSocketHub(logger: Logger(label: "assistant-socket-test"))
        let router = Router(context: BasicWebSocketRequestContext.self)
        hub.addRoute(to: router)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: AssistantSocketHub.webSocketConfiguration)),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "assistant-socket-test"))
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        let port = try await firstMatch(ports) { $0 }
        return SocketServer(hub: hub, port: port, task: task)
    }

    func backend(_ mode: String, query: String = "") async throws -> Child {
        let child = try Child(
            "nice", ["-n", "5", Self.root + "/scripts/wyoming-peer", "ws_backend.py", "ws://127.0.0.1:\(port)/api/assistant\(query)", "--mode", mode])
        // Waits for the connection itself (the first run also makes the venv), with a hang guard.
        let deadline = ContinuousClock.now + .seconds(180)
        while await hub.connectedCount == 0 {
            guard ContinuousClock.now < deadline else { throw TestFailure("the backend never connected: \(child.stderrSoFar)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return child
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    static func summary(_ child: Child) async throws -> [String: Any] {
        let output = try await offCooperativePool { child.finish(hangGuard: .seconds(60)) }
        guard output.status == 0 else { throw TestFailure("backend failed (\(output.status)): \(output.stderr)") }
        guard let line = output.stdout.split(separator: "\n").last,
            let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw TestFailure("no JSON from the backend: \(output.stdout)") }
        return json
    }
}

@Suite("WebSocket assistant backend (/api/assistant) with a real websockets client", .oneAtATime, .serialized)
struct AssistantSocketTests {
    /// The command, with the time the backend has to answer (the assistant's reply timeout).
    private func utterance(timeLimit: Duration? = nil) throws -> Utterance {
        Utterance(
            audio: try AudioFileReader.read(SocketServer.root + "/samples/hey-glasses-what-time.wav"), wakeWord: "hey glasses", linkRate: 16000,
            timeLimit: timeLimit)
    }

    @Test func backendAnswersWithTextAndGetsPCMWithMetadata() async throws {
        let server = try await SocketServer.start()
        try await withTeardown({ await server.stop() }) {
            let child = try await server.backend("answer")
            let command = try utterance()
            let reply = try await WebSocketAssistantBackend(hub: server.hub).respond(to: command)
            #expect(reply == AssistantReply(heard: "what time is it", answer: "It is noon."))
            let summary = try await SocketServer.summary(child)
            #expect((summary["hello"] as? [String: Any])?["format"] as? String == "pcm_s16le")
            let header = try #require(summary["command"] as? [String: Any])
            #expect(header["wake_word"] as? String == "hey glasses")
            #expect(header["format"] as? String == "pcm_s16le")
            #expect(header["rate"] as? Int == 16000)
            #expect(header["link_rate"] as? Int == 16000)
            #expect((header["events"] as? [[String: Any]])?.map { $0["type"] as? String } == ["wake", "speechStarted", "speechStopped"])
            #expect(summary["audio_bytes"] as? Int == command.audio.frameCount * 2)
        }
    }

    @Test func oggOpusOnRequest() async throws {
        let server = try await SocketServer.start()
        try await withTeardown({ await server.stop() }) {
            let child = try await server.backend("answer", query: "?format=ogg_opus")
            let command = try utterance()
            _ = try await WebSocketAssistantBackend(hub: server.hub).respond(to: command)
            let summary = try await SocketServer.summary(child)
            #expect(summary["audio_magic"] as? String == "OggS")
            #expect((summary["audio_bytes"] as? Int ?? .max) < command.audio.frameCount * 2 / 4)
        }
    }

    @Test func backendAnswersWithAudioToPlay() async throws {
        let server = try await SocketServer.start()
        try await withTeardown({ await server.stop() }) {
            let child = try await server.backend("audio")
            let reply = try await WebSocketAssistantBackend(hub: server.hub).respond(to: try utterance(timeLimit: .seconds(60)))
            #expect(reply.heard == "play a tone")
            let audio = try #require(reply.audio)
            #expect(audio.format.sampleRate == 22050)
            #expect(audio.frameCount == 11025)
            _ = try await SocketServer.summary(child)
        }
    }

    @Test func silentBackendGivesTheSpokenTimeout() async throws {
        let server = try await SocketServer.start()
        try await withTeardown({ await server.stop() }) {
            let child = try await server.backend("silent")
            let reply = try await WebSocketAssistantBackend(hub: server.hub).respond(to: try utterance(timeLimit: .milliseconds(300)))
            #expect(reply.answer == "The assistant backend did not answer.")
            child.signal(SIGTERM)
            _ = try await offCooperativePool { child.finish() }
        }
    }

    @Test func backendThatLeavesMidCommandGivesTheSpokenError() async throws {
        let server = try await SocketServer.start()
        try await withTeardown({ await server.stop() }) {
            let child = try await server.backend("disconnect")
            // A long timeout: the answer must come from the disconnect, not from the clock.
            let reply = try await WebSocketAssistantBackend(hub: server.hub).respond(to: try utterance(timeLimit: .seconds(600)))
            #expect(reply.answer == "The assistant backend disconnected.")
            _ = try await SocketServer.summary(child)
        }
    }

    @Test func backendErrorAndNoBackendAreSpoken() async throws {
        let server = try await SocketServer.start()
        try await withTeardown({ await server.stop() }) {
            let none = try await WebSocketAssistantBackend(hub: server.hub).respond(to: try utterance())
            #expect(none.answer == "No assistant backend is connected.")
            let child = try await server.backend("error")
            await #expect(throws: AssistantSocketError.backendError("model overloaded")) {
                try await WebSocketAssistantBackend(hub: server.hub).answer(try utterance(timeLimit: .seconds(60)))
            }
            _ = try await SocketServer.summary(child)
        }
    }

    @Test func badMessagesAreAnsweredAndTheCommandStillCompletes() async throws {
        let server = try await SocketServer.start()
        try await withTeardown({ await server.stop() }) {
            let child = try await server.backend("junk-then-answer")
            let reply = try await WebSocketAssistantBackend(hub: server.hub).respond(to: try utterance(timeLimit: .seconds(60)))
            #expect(reply.answer == "It is noon.")
            let summary = try await SocketServer.summary(child)
            #expect((summary["complaint"] as? [String: Any])?["type"] as? String == "error")
            #expect(((summary["complaint_id"] as? [String: Any])?["text"] as? String)?.contains("999") == true)
        }
    }
}
