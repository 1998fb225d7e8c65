import Foundation

/// The key every API call but `connection/test` carries in `X-API-Key`: made on first start
/// (32 random bytes, hex), kept in `DATA_DIR/api_key` with mode 0600, compared in constant time.
public struct APIKey: Sendable {
    public let value: String
    public let path: String

    /// Reads the key file, or makes one (written atomically: a temporary file, then rename).
    public static func loadOrCreate(in directory: String) throws -> APIKey {
        let path = (directory as NSString).appendingPathComponent("api_key")
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard value.count >= 32, value.allSatisfy(\.isHexDigit) else {
                throw DaemonError("\(path) holds no valid API key (64 hex digits expected): delete it to have a new one made")
            }
            _ = chmod(path, 0o600)
            return APIKey(value: value, path: path)
        }
        var generator = SystemRandomNumberGenerator()
        let value = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        try AtomicFile.write(Data((value + "\n").utf8), to: path, mode: 0o600)
        return APIKey(value: value, path: path)
    }

    /// Whether `candidate` is the key: lengths compared exactly first (a length is no secret:
    /// every key is 64 hex digits), then every byte in time that depends only on the key's length.
    public func matches(_ candidate: String?) -> Bool {
        let expected = Array(value.utf8)
        let given = Array((candidate ?? "").utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices {
            difference |= expected[index] ^ given[index]
        }
        return difference == 0
    }
}
