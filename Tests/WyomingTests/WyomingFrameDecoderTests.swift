import TestKit
import Testing
import Wyoming

@Suite("Wyoming frame decoder", .oneAtATime)
struct WyomingFrameDecoderTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Every frame, fed one byte at a time.
    private func decodeByteByByte(_ stream: [UInt8]) throws -> [WyomingFrame] {
        var decoder = WyomingFrameDecoder()
        var frames: [WyomingFrame] = []
        for byte in stream {
            decoder.append([byte])
            while let frame = try decoder.next() { frames.append(frame) }
        }
        try decoder.finish()
        return frames
    }

    @Test func readsWhatPythonWrites() throws {
        // Bytes as wyoming 1.10.2's write_event produces them (data separate, then payload).
        let data = bytes("{\"rate\": 16000, \"width\": 2, \"channels\": 1, \"timestamp\": 0}")
        let stream = bytes("{\"type\": \"audio-chunk\", \"version\": \"1.10.2\", \"data_length\": \(data.count), \"payload_length\": 4}\n")
            + data + [1, 0, 255, 255]
            + bytes("{\"type\": \"ping\", \"data\": {\"text\": \"hi\"}}\n")
        let frames = try decodeByteByByte(stream)
        #expect(frames.count == 2)
        #expect(frames[0].type == "audio-chunk")
        #expect(frames[0].data["rate"] == .int(16000))
        #expect(frames[0].payload == [1, 0, 255, 255])
        #expect(try WyomingEvent(frame: frames[1]) == .ping(text: "hi"))
    }

    @Test func dataBytesAreMergedOverHeaderData() throws {
        let data = bytes("{\"text\": \"new\"}")
        let stream = bytes("{\"type\": \"transcript\", \"data\": {\"text\": \"old\", \"language\": \"en\"}, \"data_length\": \(data.count)}\n") + data
        let frame = try #require(try decodeByteByByte(stream).first)
        #expect(frame.data == ["text": "new", "language": "en"])
    }

    @Test(arguments: [
        WyomingEvent.describe, .ping(text: nil), .pong(text: "x"), .runSatellite, .pauseSatellite,
        .runPipeline(WyomingPipelineRun(start: .asr, end: .tts, wakeWordName: "hey_glasses")),
        .audioStart(.voice, timestamp: 0), .audioChunk(WyomingAudioFormat(rate: 22050), timestamp: 12, audio: [1, 2, 3, 4]),
        .audioStop(timestamp: 99), .detect(names: ["hey_glasses"]), .detection(name: "hey_glasses", timestamp: 1230), .notDetected,
        .voiceStarted(timestamp: 5), .voiceStopped(timestamp: 9), .played, .transcript(text: "what time is it \"now\"\n"),
        .synthesize(text: "It is noon."), .error(text: "oops", code: "x"),
        .timer(WyomingTimer(change: .started, id: "t1", totalSeconds: 60, name: "tea")),
        .timer(WyomingTimer(change: .updated, id: "t1", totalSeconds: 30, isActive: false)),
        .info(WyomingInfo(
            satellite: .init(name: "glasses", area: "office", activeWakeWords: ["hey_glasses"]), mic: .voice, snd: WyomingAudioFormat(rate: 22050),
            wakeWords: [.init(name: "hey_glasses", phrase: "hey glasses")], version: "1.0")),
    ])
    func roundTrips(_ event: WyomingEvent) throws {
        let frames = try decodeByteByByte(WyomingFrameEncoder.encode(event))
        #expect(frames.count == 1)
        #expect(try WyomingEvent(frame: frames[0]) == event)
    }

    @Test func headerOverTheLimitFailsBeforeTheNewlineArrives() {
        var decoder = WyomingFrameDecoder()
        decoder.append(bytes("{\"type\": \"ping\", \"x\": \"") + [UInt8](repeating: UInt8(ascii: "a"), count: 70_000))
        #expect(throws: WyomingProtocolError.headerTooLong(limit: 65536)) { try decoder.next() }
        // The decoder stays failed: the stream cannot be followed.
        decoder.append(bytes("\n{\"type\": \"ping\"}\n"))
        #expect(throws: WyomingProtocolError.headerTooLong(limit: 65536)) { try decoder.next() }
    }

    @Test(arguments: [
        ("not json\n", "invalid-json"),
        ("[1, 2]\n", "invalid-json"),
        ("{\"data\": {}}\n", "missing-type"),
        ("{\"type\": 5}\n", "missing-type"),
        ("{\"type\": \"ping\", \"data_length\": -1}\n", "invalid-length"),
        ("{\"type\": \"ping\", \"payload_length\": -20}\n", "invalid-length"),
        ("{\"type\": \"ping\", \"payload_length\": 99999999999}\n", "invalid-length"),
        ("{\"type\": \"ping\", \"payload_length\": \"12\"}\n", "invalid-length"),
        ("{\"type\": \"ping\", \"payload_length\": 1.5}\n", "invalid-length"),
        ("{\"type\": \"ping\", \"data\": [1]}\n", "invalid-json"),
        ("{\"type\": \"ping\", \"data_length\": 3}\nabc", "invalid-data"),
    ])
    func brokenFramingIsNamed(_ input: String, _ code: String) {
        var decoder = WyomingFrameDecoder()
        decoder.append(bytes(input))
        do {
            _ = try decoder.next()
            Issue.record("no error for \(input)")
        } catch {
            #expect(error.code == code)
            #expect(!error.isFramingIntact)
        }
    }

    @Test func truncatedPayloadIsReportedAtTheEnd() throws {
        var decoder = WyomingFrameDecoder()
        decoder.append(bytes("{\"type\": \"audio-chunk\", \"payload_length\": 100}\n") + [UInt8](repeating: 0, count: 40))
        #expect(try decoder.next() == nil)
        #expect(throws: WyomingProtocolError.truncated(expected: 100, received: 40)) { try decoder.finish() }
    }

    @Test func unknownTypeKeepsTheStreamInStep() throws {
        var decoder = WyomingFrameDecoder()
        decoder.append(bytes("{\"type\": \"frobnicate\", \"payload_length\": 2}\nxy{\"type\": \"ping\"}\n"))
        let unknown = try #require(try decoder.next())
        #expect(throws: WyomingProtocolError.unknownType("frobnicate")) { try WyomingEvent(frame: unknown) }
        #expect(WyomingProtocolError.unknownType("frobnicate").isFramingIntact)
        let ping = try #require(try decoder.next())
        #expect(try WyomingEvent(frame: ping) == .ping(text: nil))
    }

    @Test(arguments: [
        ("{\"type\": \"audio-start\", \"data\": {\"rate\": 16000, \"width\": 2}}\n", "channels"),
        ("{\"type\": \"audio-start\", \"data\": {\"rate\": 16000, \"width\": 3, \"channels\": 1}}\n", "width"),
        ("{\"type\": \"audio-chunk\", \"data\": {\"rate\": 16000, \"width\": 2, \"channels\": 1}, \"payload_length\": 3}\nabc", "payload"),
        ("{\"type\": \"transcript\", \"data\": {\"text\": 5}}\n", "text"),
        ("{\"type\": \"run-pipeline\", \"data\": {\"start_stage\": \"asr\", \"end_stage\": \"dance\"}}\n", "end_stage"),
        ("{\"type\": \"timer-started\", \"data\": {\"total_seconds\": 5}}\n", "id"),
    ])
    func badFieldsNameTheField(_ input: String, _ field: String) throws {
        var decoder = WyomingFrameDecoder()
        decoder.append(bytes(input))
        let frame = try #require(try decoder.next())
        do {
            _ = try WyomingEvent(frame: frame)
            Issue.record("no error for \(input)")
        } catch {
            guard case .badField(_, let named, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(named == field)
            #expect(error.isFramingIntact)
        }
    }

    @Test func passedOnTypesAreAcceptedAsOther() throws {
        var decoder = WyomingFrameDecoder()
        decoder.append(bytes("{\"type\": \"streaming-started\"}\n"))
        let frame = try #require(try decoder.next())
        #expect(try WyomingEvent(frame: frame) == .other(WyomingFrame(type: "streaming-started")))
    }
}
