/// A 6-digit pairing code, drawn fresh for every window from the random source the owner is
/// given (the system's in the daemon, a seeded one in tests).
public struct PairingCode: Sendable, Hashable, CustomStringConvertible {
    public static let length = 6
    public let digits: String

    /// `text` if it is exactly six ASCII digits.
    public init?(text: String) {
        guard text.utf8.count == Self.length, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        digits = text
    }

    /// A code uniform over 000000…999999.
    public static func random(using generator: inout some RandomNumberGenerator) -> PairingCode {
        let number = Int.random(in: 0..<1_000_000, using: &generator)
        let text = String(number)
        return PairingCode(text: String(repeating: "0", count: length - text.count) + text)!
    }

    /// What the glasses say, twice, digit by digit: "Your pairing code is 4, 0, 7, 1, 9, 2. Again: 4, 0, 7, 1, 9, 2."
    public var spoken: String {
        let separated = digits.map(String.init).joined(separator: ", ")
        return "Your pairing code is \(separated). Again: \(separated)."
    }

    public var description: String { "pairing code (6 digits)" }
}
