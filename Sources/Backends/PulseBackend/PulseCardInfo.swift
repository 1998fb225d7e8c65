/// A card as libpulse describes it.
struct PulseCardInfo: Sendable {
    var index: UInt32
    var name: String
    var properties: [String: String]
    var profiles: [String]
    var activeProfile: String?
}
