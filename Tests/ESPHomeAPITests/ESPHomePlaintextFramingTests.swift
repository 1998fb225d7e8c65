import ESPHomeAPI
import TestKit
import Testing

@Suite("ESPHome plaintext framing", .oneAtATime)
struct ESPHomePlaintextFramingTests {
    @Test func aHelloRequestTravelsAsTheClientWritesIt() throws {
        var hello = ESPHomeHelloRequest()
        hello.clientInfo = "aioesphomeapi"
        hello.apiVersionMajor = 1
        hello.apiVersionMinor = 10
        let bytes = ESPHomePlaintextEncoder.encode(try hello.frame())
        // Indicator, body length, type 1 (HelloRequest), then the body.
        #expect(Array(bytes.prefix(3)) == [0x00, UInt8(bytes.count - 3), 0x01])
        var decoder = ESPHomePlaintextDecoder()
        decoder.append(bytes)
        let frame = try #require(try decoder.next())
        #expect(frame.type == .helloRequest)
        #expect(try ESPHomeHelloRequest(frame: frame) == hello)
        #expect(try decoder.next() == nil)
    }

    @Test func framesSplitAnywhereComeOutWhole() throws {
        let frames = [
            ESPHomeFrame(.pingRequest),
            ESPHomeFrame(.voiceAssistantAudio, body: Array(repeating: 0x5A, count: 300)),
            ESPHomeFrame(typeNumber: 70_000, body: [1, 2, 3]),
        ]
        let stream = frames.flatMap(ESPHomePlaintextEncoder.encode)
        for cut in [1, 2, 3, 7, 64, 299] {
            var decoder = ESPHomePlaintextDecoder()
            var seen: [ESPHomeFrame] = []
            var offset = 0
            while offset < stream.count {
                decoder.append(stream[offset..<min(offset + cut, stream.count)])
                offset += cut
                while let frame = try decoder.next() { seen.append(frame) }
            }
            #expect(seen == frames, "split every \(cut) bytes")
            #expect(decoder.pendingByteCount == 0)
        }
    }

    @Test func aTypeThisBuildDoesNotKnowIsAFrameNotAnError() throws {
        var decoder = ESPHomePlaintextDecoder()
        decoder.append(ESPHomePlaintextEncoder.encode(ESPHomeFrame(typeNumber: 9999, body: [7])))
        let frame = try #require(try decoder.next())
        #expect(frame.type == nil)
        #expect(frame.typeNumber == 9999)
    }

    @Test func anEncryptedClientIsToldWhatIsWrong() {
        var decoder = ESPHomePlaintextDecoder()
        decoder.append([0x01, 0x00, 0x00])
        #expect(throws: ESPHomeFramingError.badIndicator(0x01)) { try decoder.next() }
        #expect(ESPHomeFramingError.badIndicator(0x01).description.contains("encrypted"))
        // Failed for good: the stream has no frame boundary left to trust.
        decoder.append(ESPHomePlaintextEncoder.encode(ESPHomeFrame(.pingRequest)))
        #expect(throws: ESPHomeFramingError.badIndicator(0x01)) { try decoder.next() }
    }

    @Test func anOversizedFrameIsRefusedBeforeItsBodyArrives() {
        var decoder = ESPHomePlaintextDecoder(maximumBodyLength: 1024)
        decoder.append([0x00, 0x81, 0x08, 0x07])  // 1025 bytes announced
        #expect(throws: ESPHomeFramingError.oversized(length: 1025, limit: 1024)) { try decoder.next() }
    }

    @Test func aVarintThatNeverEndsIsRefused() {
        var decoder = ESPHomePlaintextDecoder()
        decoder.append([0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(throws: ESPHomeFramingError.badVarint) { try decoder.next() }
    }

    @Test func everyGeneratedTypeNumberIsUnique() {
        let numbers = ESPHomeMessageType.allCases.map(\.rawValue)
        #expect(Set(numbers).count == numbers.count)
        #expect(ESPHomeMessageType.voiceAssistantAudio.rawValue == 106)
    }
}
