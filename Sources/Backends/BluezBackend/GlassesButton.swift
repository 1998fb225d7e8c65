import Foundation

/// A touch on the glasses: AVRCP pass-through play/pause pressed or released, at the time the
/// kernel stamped on it (`struct input_event`'s time: the system's real-time clock, as seconds
/// since the epoch, unless a reader asks evdev for another clock).
///
/// Neither sound server hands `AT+BVRA` (the HFP voice-recognition key) on: PipeWire 0.3.65
/// answers ERROR, PulseAudio 16 OK and nothing else (docs/bluez.md). AVRCP keys do reach us:
/// with no media player registered, bluetoothd turns the keys of a connected device's AVRCP
/// controller into key events of an input device of its own (uinput; `Uniq` is the device's
/// address), which this reads. A key held down stays down there while the glasses repeat the
/// pass-through press (bluetoothd lets go of it 2 s after the last one), so a hold is a press
/// and, when it ends, a release.
public enum GlassesButtonEvent: Sendable, Equatable {
    /// KEY_PLAYPAUSE, KEY_PLAYCD or KEY_PAUSECD pressed.
    case pressed(at: Duration)
    /// The same key released.
    case released(at: Duration)

    public var isPress: Bool { if case .pressed = self { true } else { false } }

    /// The clock the kernel stamps touches with (real time, since the epoch), read now.
    public static func clockNow() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}

/// One entry of `/proc/bus/input/devices`.
public struct InputDeviceEntry: Sendable, Equatable {
    /// `I: Bus=` (0005 is Bluetooth).
    public var bus: String = ""
    public var name: String
    public var uniq: String
    /// `event3`, `kbd`…
    public var handlers: [String]

    public var eventNode: String? { handlers.first { $0.hasPrefix("event") } }
}

public enum InputDevices {
    /// The entries of `/proc/bus/input/devices` (blocks separated by blank lines).
    public static func parse(_ text: String) -> [InputDeviceEntry] {
        var entries: [InputDeviceEntry] = []
        var current: InputDeviceEntry?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if let entry = current { entries.append(entry) }
                current = nil
                continue
            }
            var entry = current ?? InputDeviceEntry(name: "", uniq: "", handlers: [])
            if line.hasPrefix("I: "), let bus = line.split(separator: " ").first(where: { $0.hasPrefix("Bus=") }) {
                entry.bus = String(bus.dropFirst("Bus=".count))
            } else if line.hasPrefix("N: Name=") {
                entry.name = String(line.dropFirst("N: Name=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            } else if line.hasPrefix("U: Uniq=") {
                entry.uniq = String(line.dropFirst("U: Uniq=".count))
            } else if line.hasPrefix("H: Handlers=") {
                entry.handlers = line.dropFirst("H: Handlers=".count).split(separator: " ").map(String.init)
            }
            current = entry
        }
        if let entry = current { entries.append(entry) }
        return entries
    }

    /// The event node (`event5`) bluetoothd made for the glasses at `address` named `name`: the
    /// one whose `Uniq` is the address if any says so, else the Bluetooth-bus device named
    /// "NAME (AVRCP)" (bluetoothd 5.66), the newest if there are several.
    public static func eventNode(forAddress address: String, name: String?, in entries: [InputDeviceEntry]) -> String? {
        if let byAddress = entries.last(where: { $0.uniq.caseInsensitiveCompare(address) == .orderedSame }) { return byAddress.eventNode }
        let names = Set([name, address].compactMap { $0 }.map { "\($0) (AVRCP)" })
        return entries.last { $0.bus == "0005" && names.contains($0.name) }?.eventNode
    }
}

/// Decodes `struct input_event` (64-bit Linux: two 8-byte time fields, type, code, value).
public struct InputEventDecoder: Sendable {
    static let size = 24
    static let keyEvent: UInt16 = 1  // EV_KEY
    /// KEY_PLAYPAUSE (164), KEY_PLAYCD (200), KEY_PAUSECD (201).
    static let playPauseKeys: Set<UInt16> = [164, 200, 201]
    private var pending: [UInt8] = []

    public init() {}

    /// The play/pause presses (value 1) and releases (value 0) in `bytes`, with their times;
    /// the kernel's repeats (value 2), other keys and other event types are not touches.
    public mutating func feed(_ bytes: [UInt8]) -> [GlassesButtonEvent] {
        pending += bytes
        var touches: [GlassesButtonEvent] = []
        while pending.count >= Self.size {
            let event = Array(pending.prefix(Self.size))
            pending.removeFirst(Self.size)
            func integer(_ range: Range<Int>) -> UInt64 { range.reversed().reduce(0) { $0 << 8 | UInt64(event[$1]) } }
            let type = UInt16(integer(16..<18)), code = UInt16(integer(18..<20))
            let value = Int32(bitPattern: UInt32(integer(20..<24)))
            guard type == Self.keyEvent, Self.playPauseKeys.contains(code) else { continue }
            let time = Duration.seconds(Int64(bitPattern: integer(0..<8))) + .microseconds(Int64(bitPattern: integer(8..<16)))
            if value == 1 { touches.append(.pressed(at: time)) } else if value == 0 { touches.append(.released(at: time)) }
        }
        return touches
    }
}
