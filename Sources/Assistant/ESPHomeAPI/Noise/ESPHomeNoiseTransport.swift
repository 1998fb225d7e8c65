import Crypto

/// ESPHome's encrypted transport for one connection, as a pure machine: the client's bytes in,
/// the messages it carried and the bytes to answer out. Every frame is `0x01`, a big-endian
/// 16-bit length and the body; first the client's hello and the Noise handshake (the server
/// hello names the device and its MAC, as ESPHome's does), then each message encrypted as
/// type, length and body. A refusal is a frame of `0x01` and the reason (aioesphomeapi turns
/// "Handshake MAC failure" into "invalid encryption key"), then the connection closes.
public struct ESPHomeNoiseTransport: Sendable {
    /// Handshake frames are small; ESPHome refuses longer ones before the keys are agreed.
    static let maximumHandshakeFrame = 128

    public struct Output: Sendable, Equatable {
        public var frames: [ESPHomeFrame] = []
        public var bytes: [UInt8] = []
        /// Why the connection must close (already told to the client in `bytes`), or `nil`.
        public var failure: String?
    }

    private enum Phase {
        case clientHello
        case handshake(NoiseResponderHandshake)
        case transport(receive: NoiseCipher, send: NoiseCipher)
        case failed
    }

    private let psk: [UInt8]
    private let device: ESPHomeDevice
    private let makeEphemeral: @Sendable () -> Curve25519.KeyAgreement.PrivateKey
    private var phase = Phase.clientHello
    private var buffer: [UInt8] = []

    public init(psk: [UInt8], device: ESPHomeDevice) {
        self.init(psk: psk, device: device, makeEphemeral: { Curve25519.KeyAgreement.PrivateKey() })
    }

    init(psk: [UInt8], device: ESPHomeDevice, makeEphemeral: @escaping @Sendable () -> Curve25519.KeyAgreement.PrivateKey) {
        self.psk = psk
        self.device = device
        self.makeEphemeral = makeEphemeral
    }

    public var established: Bool {
        if case .transport = phase { true } else { false }
    }

    /// Bytes from the client.
    public mutating func receive(_ bytes: [UInt8]) -> Output {
        var output = Output()
        if case .failed = phase { return output }
        buffer += bytes
        while output.failure == nil, let body = nextBody(into: &output) {
            handle(body, into: &output)
        }
        if output.failure != nil { phase = .failed }
        return output
    }

    /// The bytes that carry `frame` to the client (only once the handshake is done).
    public mutating func encrypt(_ frame: ESPHomeFrame) -> [UInt8] {
        guard case .transport(let receive, var send) = phase else { return [] }
        var plaintext = [UInt8(frame.typeNumber >> 8 & 0xFF), UInt8(frame.typeNumber & 0xFF)]
        plaintext += [UInt8(frame.body.count >> 8 & 0xFF), UInt8(frame.body.count & 0xFF)] + frame.body
        let ciphertext = send.encrypt(plaintext)
        phase = .transport(receive: receive, send: send)
        return Self.frame(ciphertext)
    }

    private mutating func nextBody(into output: inout Output) -> [UInt8]? {
        guard let indicator = buffer.first else { return nil }
        guard indicator == 0x01 else {
            refuse("Bad indicator byte", log: "the client speaks the plaintext protocol, and this server requires encryption", into: &output)
            return nil
        }
        guard buffer.count >= 3 else { return nil }
        let length = Int(buffer[1]) << 8 | Int(buffer[2])
        if case .transport = phase {} else if length > Self.maximumHandshakeFrame {
            refuse("Bad handshake packet len", log: "a handshake frame of \(length) bytes (at most \(Self.maximumHandshakeFrame))", into: &output)
            return nil
        }
        guard buffer.count >= 3 + length else { return nil }
        let body = Array(buffer[3..<3 + length])
        buffer.removeFirst(3 + length)
        return body
    }

    private mutating func handle(_ body: [UInt8], into output: inout Output) {
        switch phase {
        case .clientHello:
            // The prologue binds the client's hello: "NoiseAPIInit", its length, its body.
            let prologue = Array("NoiseAPIInit".utf8) + [UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
            phase = .handshake(NoiseResponderHandshake(psk: psk, prologue: prologue, ephemeral: makeEphemeral()))
            // Server hello: protocol 1 (NNpsk0), the node name and the MAC, each NUL-ended.
            output.bytes += Self.frame([0x01] + Array(device.name.utf8) + [0x00] + Array(device.macHex.utf8) + [0x00])
        case .handshake(var handshake):
            guard let marker = body.first else {
                return refuse("Empty handshake message", log: "an empty handshake message", into: &output)
            }
            guard marker == 0x00 else {
                return refuse("Bad handshake error byte", log: "the handshake message starts with \(marker), not 0", into: &output)
            }
            do {
                try handshake.readFirstMessage(Array(body.dropFirst()))
                let (message, receive, send) = try handshake.writeSecondMessage()
                output.bytes += Self.frame([0x00] + message)
                phase = .transport(receive: receive, send: send)
            } catch .macFailure {
                refuse("Handshake MAC failure", log: "the Noise handshake failed: the client's encryption key is not this device's", into: &output)
            } catch {
                refuse("Handshake error", log: "the Noise handshake failed: a malformed handshake message", into: &output)
            }
        case .transport(var receive, let send):
            guard let plaintext = try? receive.decrypt(body) else {
                output.failure = "a message that does not decrypt with the session's key"
                return
            }
            phase = .transport(receive: receive, send: send)
            guard plaintext.count >= 4 else {
                output.failure = "a decrypted message of \(plaintext.count) bytes, too short for its type and length"
                return
            }
            let type = UInt32(plaintext[0]) << 8 | UInt32(plaintext[1])
            let length = Int(plaintext[2]) << 8 | Int(plaintext[3])
            guard length <= plaintext.count - 4 else {
                output.failure = "a message that announces \(length) bytes and carries \(plaintext.count - 4)"
                return
            }
            output.frames.append(ESPHomeFrame(typeNumber: type, body: Array(plaintext[4..<4 + length])))
        case .failed:
            return
        }
    }

    private mutating func refuse(_ reason: String, log: String, into output: inout Output) {
        output.bytes += Self.frame([0x01] + Array(reason.utf8))
        output.failure = log
        buffer = []
    }

    static func frame(_ body: [UInt8]) -> [UInt8] {
        [0x01, UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
    }
}
