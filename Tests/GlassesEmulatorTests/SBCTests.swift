import AudioCore
import GlassesEmulator
import Testing
import TestKit

/// The emulator's codec plumbing, with plain values: SBC configuration bytes, A2DP packets,
/// and libsbc both ways.
@Suite("SBC and A2DP packets", .oneAtATime)
struct SBCTests {
    @Test("configuration bytes are the ones BlueZ sends for 44.1 and 48 kHz joint stereo")
    func configurationBytes() {
        #expect(SBCConfiguration.forMedia(sampleRate: 44100).bytes == [0x21, 0x15, 2, 53])
        #expect(SBCConfiguration.forMedia(sampleRate: 48000).bytes == [0x11, 0x15, 2, 51])
        #expect(SBCConfiguration(sampleRate: 16000).bytes[0] == 0x81)
    }

    @Test("an A2DP packet survives its wire form; bad packets are refused with a reason")
    func packets() throws {
        let packet = A2DPPacket(sequence: 513, timestamp: 0x0102_0304, frameCount: 7, frames: [0x9c, 1, 2, 3])
        #expect(try A2DPPacket(parsing: packet.bytes) == packet)
        #expect(throws: A2DPPacket.ParseError.tooShort(5)) { try A2DPPacket(parsing: [0x80, 0x60, 0, 0, 0]) }
        var wrongVersion = packet.bytes
        wrongVersion[0] = 0x40
        #expect(throws: A2DPPacket.ParseError.notRTPVersion2(1)) { try A2DPPacket(parsing: wrongVersion) }
        var noSync = packet.bytes
        noSync[13] = 0x00
        #expect(throws: A2DPPacket.ParseError.noSBCSync(0)) { try A2DPPacket(parsing: noSync) }
        var fragmented = packet.bytes
        fragmented[12] |= 0x80
        #expect(throws: A2DPPacket.ParseError.fragmented) { try A2DPPacket(parsing: fragmented) }
    }

    @Test("a tone encoded with libsbc and decoded again keeps its pitch and level")
    func codecRoundTrip() throws {
        let tone = Signals.sine(frequency: 440, rate: 44100, seconds: 1, amplitude: 0.5)
        let stereo = tone.samples.flatMap { [$0, $0] }
        let encoder = SBCEncoder(.forMedia(sampleRate: 44100))
        let frames = try encoder.encode(stereo)
        #expect(frames.count == (stereo.count / 2 / encoder.samplesPerFrame) * encoder.frameLength)
        let decoder = SBCDecoder()
        let decoded = try decoder.decode(frames)
        #expect(decoder.sampleRate == 44100)
        #expect(decoder.channels == 2)
        let left = AudioBuffer(format: PCMFormat(sampleRate: 44100, channels: 1), samples: stride(from: 0, to: decoded.count, by: 2).map { decoded[$0] })
        #expect(abs(Spectrum.peakFrequency(left) - 440) < 5)
        #expect(abs(AudioLevel(measuring: left.samples).rmsDBFS - AudioLevel(measuring: tone.samples).rmsDBFS) < 0.5)
        #expect(throws: SBCError.self) { try decoder.decode([0x9c, 0xff, 0xff]) }
    }
}
