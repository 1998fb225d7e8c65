/// Writes frames the way the Python `wyoming` package does: the header line carries `type`,
/// `version`, `data_length` and `payload_length`; the data follows as its own JSON bytes, then
/// the payload.
public enum WyomingFrameEncoder {
    /// The protocol version this side speaks (the `wyoming` package it was checked against).
    public static let version = "1.10.2"

    public static func encode(_ frame: WyomingFrame) -> [UInt8] {
        var header: [String: WyomingJSON] = ["type": .string(frame.type), "version": .string(version)]
        let data = frame.data.isEmpty ? [] : WyomingJSON.object(frame.data).serialized()
        if !data.isEmpty { header["data_length"] = .int(data.count) }
        if !frame.payload.isEmpty { header["payload_length"] = .int(frame.payload.count) }
        var out = WyomingJSON.object(header).serialized()
        out.reserveCapacity(out.count + 1 + data.count + frame.payload.count)
        out.append(UInt8(ascii: "\n"))
        out += data
        out += frame.payload
        return out
    }

    public static func encode(_ event: WyomingEvent) -> [UInt8] {
        encode(event.frame)
    }
}
