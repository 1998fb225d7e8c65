/// One Wyoming message as it travels: a `type`, its `data` (the header's `data` merged with
/// the separate data bytes, as the Python `wyoming` package merges them) and a binary payload.
public struct WyomingFrame: Sendable, Equatable {
    public var type: String
    public var data: [String: WyomingJSON]
    public var payload: [UInt8]

    public init(type: String, data: [String: WyomingJSON] = [:], payload: [UInt8] = []) {
        self.type = type
        self.data = data
        self.payload = payload
    }
}
