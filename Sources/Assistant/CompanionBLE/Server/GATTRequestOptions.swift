import DBusKit

/// The options bluetoothd passes with `ReadValue`, `WriteValue` and the descriptors' calls:
/// the peer (`device`, its object path), the offset into the value, the link type.
struct GATTRequestOptions: Sendable, Equatable {
    var device: String?
    var offset: Int
    var link: String?

    init(_ value: DBusValue?) {
        let map = value?.propertyMap ?? [:]
        device = map["device"]?.string
        offset = map["offset"]?.integer.map { Int($0) } ?? 0
        link = map["link"]?.string
    }
}
