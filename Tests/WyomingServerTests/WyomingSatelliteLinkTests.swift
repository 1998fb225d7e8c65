import Assistant
import AudioCore
import Synchronization
import TestKit
import Testing
import Wyoming
@testable import WyomingServer

/// The satellite link without a network: a client whose `send` records what it got.
@Suite("Wyoming satellite link", .oneAtATime)
struct WyomingSatelliteLinkTests {
    final class Sent: Sendable {
        let events = Mutex<[WyomingEvent]>([])
        let (stream, continuation) = AsyncStream.makeStream(of: WyomingEvent.self)
    }

    private func utterance(seconds: Double = 0.2) -> Utterance {
        let count = Int(16000 * seconds)
        return Utterance(audio: AudioBuffer(format: PCMFormat(sampleRate: 16000, channels: 1), samples: (0..<count).map { Float($0 % 50) / 100 }), wakeWord: "hey glasses")
    }

    private func running(_ link: WyomingSatelliteLink, peer: Int = 1) async -> Sent {
        let sent = Sent()
        await link.runSatellite(peer: peer) { event in
            sent.events.withLock { $0.append(event) }
            sent.continuation.yield(event)
        }
        return sent
    }

    /// Waits until the command's audio went out (its `audio-stop`).
    private func commandSent(_ sent: Sent) async {
        for await event in sent.stream { if case .audioStop = event { return } }
    }

    @Test func commandEventsInWyomingSatellitesOrder() {
        let events = WyomingSatelliteLink.events(for: utterance(seconds: 0.2))
        #expect(events.map(\.type).prefix(4) == ["detection", "run-pipeline", "audio-start", "voice-started"])
        #expect(events.map(\.type).suffix(2) == ["voice-stopped", "audio-stop"])
        let chunks = events.compactMap { if case .audioChunk(let format, _, let audio) = $0 { (format, audio.count) } else { nil } }
        #expect(chunks.allSatisfy { $0.0 == .voice })
        #expect(chunks.map(\.1).reduce(0, +) == 3200 * 2)
        #expect(chunks.map(\.1) == [2048, 2048, 2048, 256])
        #expect(events[1] == .runPipeline(WyomingPipelineRun(start: .asr, end: .tts, wakeWordName: "hey_glasses")))
    }

    @Test func pauseDuringTheCommandFailsItAndTheNextSaysPaused() async throws {
        let link = WyomingSatelliteLink(port: 10700)
        let sent = await running(link)
        let waiting = Task { try await link.send(utterance()) }
        await commandSent(sent)
        await link.pauseSatellite(peer: 1)
        await #expect(throws: WyomingSatelliteError.paused) { try await waiting.value }
        await #expect(throws: WyomingSatelliteError.paused) { try await link.send(utterance()) }
    }

    @Test func disconnectDuringTheCommandFailsIt() async throws {
        let link = WyomingSatelliteLink(port: 10700)
        let sent = await running(link)
        let waiting = Task { try await link.send(utterance()) }
        await commandSent(sent)
        await link.disconnected(peer: 1)
        await #expect(throws: WyomingSatelliteError.disconnected) { try await waiting.value }
        await #expect(throws: WyomingSatelliteError.notConnected(port: 10700)) { try await link.send(utterance()) }
    }

    @Test func replyFromAnotherClientIsNotTaken() async throws {
        let link = WyomingSatelliteLink(port: 10700)
        let sent = await running(link, peer: 1)
        let waiting = Task { try await link.send(utterance()) }
        await commandSent(sent)
        #expect(await link.received(.transcript(text: "not mine"), from: 2) == false)
        #expect(await link.received(.transcript(text: "what time is it"), from: 1))
        #expect(await link.received(.synthesize(text: "It is noon."), from: 1))
        let tts = WyomingAudioFormat(rate: 22050, width: 2, channels: 2)
        await link.received(.audioStart(tts, timestamp: nil), from: 1)
        await link.received(.audioChunk(tts, timestamp: nil, audio: [0, 64, 0, 64, 0, 192, 0, 192]), from: 1)
        await link.received(.audioStop(timestamp: nil), from: 1)
        let reply = try await waiting.value
        #expect(reply.heard == "what time is it")
        #expect(reply.answer == "It is noon.")
        // Stereo TTS is mixed down to mono for the speaker route.
        #expect(reply.audio?.format == PCMFormat(sampleRate: 22050, channels: 1))
        #expect(reply.audio?.samples == [0.5, -0.5])
        await link.replyPlayed()
        #expect(sent.events.withLock { $0.last } == .played)
    }
}
