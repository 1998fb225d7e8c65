import ESPHomeAPI
import Foundation
import TestKit
import Testing

/// The encrypted transport's refusals, each the frame ESPHome sends (`0x01`, then the reason)
/// and the end of the connection. The whole handshake is tested with aioesphomeapi against
/// the daemon (DaemonESPHomeTests).
@Suite("ESPHome Noise transport", .oneAtATime)
struct ESPHomeNoiseTransportTests {
    let device = ESPHomeDevice.withSeed([0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF], friendlyName: "Glasses")

    private func transport() -> ESPHomeNoiseTransport {
        ESPHomeNoiseTransport(psk: Array(repeating: 1, count: 32), device: device)
    }

    private func refusal(_ reason: String) -> [UInt8] {
        [0x01, 0x00, UInt8(reason.utf8.count + 1), 0x01] + Array(reason.utf8)
    }

    @Test func theServerHelloNamesTheDeviceAndItsMAC() {
        var noise = transport()
        let output = noise.receive([0x01, 0x00, 0x00])
        let body = [0x01] + Array("glasses-ddeeff".utf8) + [0x00] + Array("aabbccddeeff".utf8) + [0x00]
        #expect(output.bytes == [0x01, 0x00, UInt8(body.count)] + body)
        #expect(output.failure == nil)
        #expect(output.frames.isEmpty)
    }

    @Test func aPlaintextClientIsToldToEncrypt() {
        var noise = transport()
        let output = noise.receive([0x00, 0x00, 0x07])
        #expect(output.bytes == refusal("Bad indicator byte"))
        #expect(output.failure != nil)
        #expect(noise.receive([0x01, 0x00, 0x00]).bytes.isEmpty, "nothing after a refusal")
    }

    @Test func aWrongKeyIsAHandshakeMACFailure() {
        var noise = transport()
        _ = noise.receive([0x01, 0x00, 0x00])
        // A well-formed first message made with another key: any 32 bytes are an X25519 key,
        // and the tag cannot verify.
        var generator = SystemRandomNumberGenerator()
        let message = [0x00] + (0..<48).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let output = noise.receive([0x01, 0x00, UInt8(message.count)] + message)
        #expect(output.bytes == refusal("Handshake MAC failure"))
        #expect(output.failure?.contains("encryption key") == true)
        #expect(!noise.established)
    }

    @Test func brokenHandshakesAreRefusedWithESPHomesReasons() {
        for (message, reason) in [([UInt8](), "Empty handshake message"), ([0x05] + Array(repeating: 0, count: 48), "Bad handshake error byte")] {
            var noise = transport()
            _ = noise.receive([0x01, 0x00, 0x00])
            let output = noise.receive([0x01, 0x00, UInt8(message.count)] + message)
            #expect(output.bytes == refusal(reason))
        }
        var noise = transport()
        let output = noise.receive([0x01, 0x01, 0x00])  // 256 bytes announced for the client hello
        #expect(output.bytes == refusal("Bad handshake packet len"))
    }

    @Test func framesSplitAnywhereAreWaitedFor() {
        var noise = transport()
        #expect(noise.receive([0x01]).bytes.isEmpty)
        #expect(noise.receive([0x00]).bytes.isEmpty)
        #expect(!noise.receive([0x00]).bytes.isEmpty)
    }
}
