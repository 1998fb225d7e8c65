import BluezBackend
import Foundation
import Testing
import TestKit

/// The glasses' touch (AVRCP play/pause), as bluetoothd hands it over: key events of an input
/// device of its own ("NAME (AVRCP)" on the Bluetooth bus, as bluetoothd 5.66 makes it).
@Suite("Glasses button (AVRCP keys through bluetoothd's input device)", .oneAtATime)
struct GlassesButtonTests {
    static let devices = """
        I: Bus=0011 Vendor=0001 Product=0001 Version=ab41
        N: Name="AT Translated Set 2 keyboard"
        P: Phys=isa0060/serio0/input0
        U: Uniq=
        H: Handlers=sysrq kbd event0

        I: Bus=0005 Vendor=0000 Product=0000 Version=0000
        N: Name="Lab Glasses (AVRCP)"
        P: Phys=c0:c1:c2:c3:c4:c5
        U: Uniq=
        H: Handlers=kbd event3

        I: Bus=0003 Vendor=0000 Product=0000 Version=0000
        N: Name="Other Glasses (AVRCP)"
        P: Phys=usb-1
        U: Uniq=
        H: Handlers=kbd event4

        I: Bus=0005 Vendor=0000 Product=0000 Version=0000
        N: Name="Other Glasses (AVRCP)"
        P: Phys=c0:c1:c2:c3:c4:c5
        U: Uniq=0a:0b:0c:0d:0e:0f
        H: Handlers=kbd event5

        """

    @Test("the glasses' input device is found by its Uniq (the address, any case), else as 'NAME (AVRCP)' on the Bluetooth bus")
    func findsTheGlasses() {
        let entries = InputDevices.parse(Self.devices)
        #expect(entries.count == 4)
        #expect(entries[1].name == "Lab Glasses (AVRCP)" && entries[1].bus == "0005")
        #expect(InputDevices.eventNode(forAddress: "F0:F1:F2:F3:F4:F5", name: "Lab Glasses", in: entries) == "event3")
        #expect(InputDevices.eventNode(forAddress: "0A:0B:0C:0D:0E:0F", name: nil, in: entries) == "event5")
        #expect(InputDevices.eventNode(forAddress: "00:11:22:33:44:55", name: "Someone Else", in: entries) == nil)
    }

    @Test("play/pause keys' presses and releases are touches, with the kernel's times; repeats, other keys and other event types are not")
    func decodesTouches() {
        var decoder = InputEventDecoder()
        let events = Self.event(type: 1, code: 200, value: 1, seconds: 1_800_000_000, microseconds: 250_000)
            + Self.event(type: 0, code: 0, value: 0) + Self.event(type: 1, code: 200, value: 2)
            + Self.event(type: 1, code: 200, value: 0, seconds: 1_800_000_003, microseconds: 5) + Self.event(type: 1, code: 30, value: 1)
            + Self.event(type: 1, code: 164, value: 1, seconds: 7)
        // Split across reads: the decoder keeps a partial event for the next one.
        #expect(decoder.feed(Array(events.prefix(30))) == [.pressed(at: .seconds(1_800_000_000) + .milliseconds(250))])
        #expect(
            decoder.feed(Array(events.dropFirst(30)))
                == [.released(at: .seconds(1_800_000_003) + .microseconds(5)), .pressed(at: .seconds(7))])
    }

    @Test("a device that appears after the reader started is read (watched, not polled)")
    func readsADeviceThatAppearsLater() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("button-\(UUID().uuidString.prefix(8))").path
        let input = root + "/input", staging = root + "/staging"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let devicesFile = root + "/devices"
        try "".write(toFile: devicesFile, atomically: true, encoding: .utf8)
        let reader = try GlassesButtonReader(address: "F0:F1:F2:F3:F4:F5", name: "Lab Glasses", devicesFile: devicesFile, inputDirectory: input)
        defer { reader.stop() }
        // The device appears: listed, then its node moved into the watched folder (a FIFO held
        // open for writing here stands for the evdev node).
        try Self.devices.write(toFile: devicesFile, atomically: true, encoding: .utf8)
        #expect(mkfifo(staging + "/event3", 0o600) == 0)
        let writer = open(staging + "/event3", O_RDWR)
        #expect(writer >= 0)
        defer { close(writer) }
        #expect(rename(staging + "/event3", input + "/event3") == 0)
        let bytes = Self.event(type: 1, code: 200, value: 1) + Self.event(type: 1, code: 200, value: 0)
        #expect(bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == bytes.count)
        let press = try await firstMatch(reader.events, guardSeconds: 30) { $0 }
        #expect(press.isPress)
        #expect(reader.state == "reading \(input)/event3")
        // Stopped, the presses end; stopping again (the thread is gone) does no harm (no SIGPIPE).
        reader.stop()
        let ended: Bool = try await firstMatch(Self.ends(reader.events), guardSeconds: 30) { $0 }
        #expect(ended)
        reader.stop()
    }

    /// One element, `true`, once `events` has finished.
    static func ends(_ events: AsyncStream<GlassesButtonEvent>) -> AsyncStream<Bool> {
        AsyncStream { continuation in
            Task {
                for await _ in events {}
                continuation.yield(true)
                continuation.finish()
            }
        }
    }

    static func event(type: UInt16, code: UInt16, value: Int32, seconds: Int64 = 0, microseconds: Int64 = 0) -> [UInt8] {
        var bytes = withUnsafeBytes(of: seconds.littleEndian) { Array($0) } + withUnsafeBytes(of: microseconds.littleEndian) { Array($0) }
        for part in [UInt32(type), UInt32(code)] { bytes += [UInt8(part & 0xFF), UInt8(part >> 8)] }
        let raw = UInt32(bitPattern: value)
        bytes += [UInt8(raw & 0xFF), UInt8(raw >> 8 & 0xFF), UInt8(raw >> 16 & 0xFF), UInt8(raw >> 24)]
        return bytes
    }
}
