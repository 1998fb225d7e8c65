import Crypto
import Foundation

/// `Noise_NNpsk0_25519_ChaChaPoly_SHA256` from the responder's side, as ESPHome's native API
/// uses it (the Noise Protocol Framework, revision 34: pattern `-> psk, e` / `<- e, ee`):
/// read the initiator's first message, write the answer, split into the two transport
/// ciphers. Built on swift-crypto's X25519, ChaCha20-Poly1305, SHA-256 and HMAC.
struct NoiseResponderHandshake {
    static let protocolName = "Noise_NNpsk0_25519_ChaChaPoly_SHA256"

    enum Failure: Error, Equatable {
        /// The first message's tag does not verify: the client's key differs from ours.
        case macFailure
        /// The first message has the wrong length or the peer's key is not a curve point.
        case malformed
    }

    private var chainingKey: [UInt8]
    private var hash: [UInt8]
    private var cipher = NoiseCipher(key: nil)
    private let psk: [UInt8]
    private let ephemeral: Curve25519.KeyAgreement.PrivateKey
    private var remoteEphemeral: Curve25519.KeyAgreement.PublicKey?

    init(psk: [UInt8], prologue: [UInt8], ephemeral: Curve25519.KeyAgreement.PrivateKey = .init()) {
        precondition(psk.count == 32, "the pre-shared key has 32 bytes")
        // The name is longer than a hash: h = SHA-256(name); ck = h.
        hash = Array(SHA256.hash(data: Array(Self.protocolName.utf8)))
        chainingKey = hash
        self.psk = psk
        self.ephemeral = ephemeral
        mixHash(prologue)
    }

    /// Reads the initiator's `psk, e` message (its 32-byte key and the tag of an empty payload).
    mutating func readFirstMessage(_ message: [UInt8]) throws(Failure) {
        guard message.count == 48 else { throw .malformed }
        mixKeyAndHash(psk)
        let remote = Array(message[0..<32])
        mixHash(remote)
        mixKey(remote)  // psk handshakes mix the ephemeral key into the chain too
        guard let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: remote) else { throw .malformed }
        remoteEphemeral = key
        let tag = Array(message[32...])
        guard (try? cipher.decrypt(tag, ad: hash)) != nil else { throw .macFailure }
        mixHash(tag)
    }

    /// Writes the `e, ee` answer (our 32-byte key and the tag of an empty payload), and returns
    /// the ciphers: the first decrypts what the client sends, the second encrypts what we send.
    mutating func writeSecondMessage() throws(Failure) -> (message: [UInt8], receive: NoiseCipher, send: NoiseCipher) {
        guard let remoteEphemeral else { throw .malformed }
        let local = Array(ephemeral.publicKey.rawRepresentation)
        mixHash(local)
        mixKey(local)
        guard let shared = try? ephemeral.sharedSecretFromKeyAgreement(with: remoteEphemeral) else { throw .malformed }
        mixKey(shared.withUnsafeBytes { Array($0) })
        let tag = cipher.encrypt([], ad: hash)
        mixHash(tag)
        let keys = Self.hkdf(chainingKey, [], outputs: 2)
        return (local + tag, NoiseCipher(key: keys[0]), NoiseCipher(key: keys[1]))
    }

    private mutating func mixHash(_ data: [UInt8]) {
        hash = Array(SHA256.hash(data: hash + data))
    }

    private mutating func mixKey(_ input: [UInt8]) {
        let outputs = Self.hkdf(chainingKey, input, outputs: 2)
        chainingKey = outputs[0]
        cipher = NoiseCipher(key: outputs[1])
    }

    private mutating func mixKeyAndHash(_ input: [UInt8]) {
        let outputs = Self.hkdf(chainingKey, input, outputs: 3)
        chainingKey = outputs[0]
        mixHash(outputs[1])
        cipher = NoiseCipher(key: outputs[2])
    }

    /// Noise's HKDF: HMAC-SHA-256 extract with the chaining key, then expand (empty info).
    static func hkdf(_ chainingKey: [UInt8], _ input: [UInt8], outputs: Int) -> [[UInt8]] {
        let pseudoRandomKey = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: chainingKey))))
        var results: [[UInt8]] = []
        var previous: [UInt8] = []
        for index in 1...outputs {
            previous = Array(HMAC<SHA256>.authenticationCode(for: previous + [UInt8(index)], using: pseudoRandomKey))
            results.append(previous)
        }
        return results
    }
}

/// ChaCha20-Poly1305 with Noise's nonces: 4 zero bytes and a 64-bit little-endian counter
/// that counts every message. Without a key (early in a handshake) it passes data through.
struct NoiseCipher {
    private let key: SymmetricKey?
    private(set) var counter: UInt64 = 0

    init(key: [UInt8]?) {
        self.key = key.map { SymmetricKey(data: $0) }
    }

    mutating func encrypt(_ plaintext: [UInt8], ad: [UInt8] = []) -> [UInt8] {
        guard let key else { return plaintext }
        defer { counter += 1 }
        // A 12-byte nonce and a key of 32 bytes cannot fail to seal.
        guard let box = try? ChaChaPoly.seal(plaintext, using: key, nonce: nonce(), authenticating: ad) else { return [] }
        return Array(box.ciphertext) + Array(box.tag)
    }

    mutating func decrypt(_ ciphertext: [UInt8], ad: [UInt8] = []) throws -> [UInt8] {
        guard let key else { return ciphertext }
        guard ciphertext.count >= 16 else { throw CryptoKitError.incorrectParameterSize }
        let box = try ChaChaPoly.SealedBox(
            nonce: nonce(), ciphertext: ciphertext.dropLast(16), tag: ciphertext.suffix(16))
        let plaintext = try ChaChaPoly.open(box, using: key, authenticating: ad)
        counter += 1
        return Array(plaintext)
    }

    private func nonce() -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 4)
        withUnsafeBytes(of: counter.littleEndian) { bytes.append(contentsOf: $0) }
        // Twelve bytes is the size ChaChaPoly's nonce takes.
        return try! ChaChaPoly.Nonce(data: bytes)
    }
}
