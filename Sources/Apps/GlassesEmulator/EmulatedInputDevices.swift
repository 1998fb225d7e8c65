import Foundation
import Synchronization

/// The kernel's input devices as bluetoothd leaves them for the glasses' AVRCP keys, in a folder
/// of the emulator's own: with no media player registered with BlueZ (neither sound server
/// registers one), bluetoothd 5.66 makes an input device through uinput when AVRCP connects,
/// named "NAME (AVRCP)", on the Bluetooth bus, the adapter's address as `Phys`, no `Uniq`, and
/// turns each pass-through key the glasses send into key events there (the lab's `touch` case).
///
/// `devicesFile` plays `/proc/bus/input/devices` (the same text), `inputDirectory` plays
/// `/dev/input`: each device is a FIFO `eventN` carrying `struct input_event`s, which the
/// emulator holds open while the device exists (the reader sees it end when it is removed, as
/// a uinput device's node goes). The listing is written before the node appears, as the kernel
/// lists a device before udev makes its node.
public final class EmulatedInputDevices: Sendable {
    public let devicesFile: String
    public let inputDirectory: String

    /// One device: its node's number and the emulator's end of it.
    struct Device: Sendable {
        var number: Int
        var name: String
        var phys: String
        var descriptor: Int32
    }

    private struct State: Sendable {
        var devices: [Device] = []
        /// The kernel numbers input devices on, never reusing a number while it runs.
        var nextNumber = 0
    }

    private let state = Mutex(State())

    /// Uses `folder` (made if missing): `folder/devices` and `folder/input/eventN`.
    public init(folder: String) throws {
        devicesFile = folder + "/devices"
        inputDirectory = folder + "/input"
        try FileManager.default.createDirectory(atPath: inputDirectory, withIntermediateDirectories: true)
        try writeListing([])
    }

    /// Adds a key device named `name` (bluetoothd: "ALIAS (AVRCP)"); returns its node's name.
    @discardableResult
    func add(name: String, phys: String) throws -> String {
        let number = state.withLock { state in
            defer { state.nextNumber += 1 }
            return state.nextNumber
        }
        let node = "\(inputDirectory)/event\(number)"
        unlink(node)
        let listed = state.withLock { $0.devices } + [Device(number: number, name: name, phys: phys, descriptor: -1)]
        try writeListing(listed)
        guard mkfifo(node, 0o660) == 0 else { throw EmulatorError.system("cannot make \(node): \(String(cString: strerror(errno)))") }
        // Read and write: the node then has a writer for as long as the device exists, and the
        // open does not wait for a reader.
        let descriptor = open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw EmulatorError.system("cannot open \(node): \(String(cString: strerror(errno)))") }
        state.withLock { $0.devices.append(Device(number: number, name: name, phys: phys, descriptor: descriptor)) }
        return "event\(number)"
    }

    /// Removes the device named `name`: off the listing, its node gone, its reader at an end.
    func remove(name: String) throws {
        let (gone, left) = state.withLock { state in
            let gone = state.devices.filter { $0.name == name }
            state.devices.removeAll { $0.name == name }
            return (gone, state.devices)
        }
        guard !gone.isEmpty else { return }
        try writeListing(left)
        for device in gone {
            close(device.descriptor)
            unlink("\(inputDirectory)/event\(device.number)")
        }
    }

    /// A key pressed and released on the device named `name` (`code`: KEY_PLAYCD is 200), each
    /// followed by a sync report, as uinput delivers a pass-through key.
    func pressAndRelease(name: String, code: UInt16) throws {
        try key(name: name, code: code, values: [1, 0])
    }

    /// The key `code` on the device named `name` goes to each of `values` (1 down, 0 up), each
    /// followed by a sync report. What no reader took before is dropped first when the key goes
    /// down (an input device's events reach the readers it has now: evdev never hands a reader
    /// that opens later the keys pressed before); a release alone keeps it (the press of a hold).
    func key(name: String, code: UInt16, values: [Int32]) throws {
        guard let device = state.withLock({ $0.devices.last { $0.name == name } }) else {
            throw EmulatorError.invalid("no input device \"\(name)\": AVRCP is not connected")
        }
        if values.first == 1 {
            var stale = [UInt8](repeating: 0, count: 4096)
            while read(device.descriptor, &stale, stale.count) > 0 {}
        }
        var bytes: [UInt8] = []
        for value in values {
            bytes += Self.event(type: 1, code: code, value: value)  // EV_KEY
            bytes += Self.event(type: 0, code: 0, value: 0)  // EV_SYN, SYN_REPORT
        }
        let written = bytes.withUnsafeBytes { write(device.descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw EmulatorError.system("cannot write the key to event\(device.number): \(String(cString: strerror(errno)))") }
    }

    /// Ends every device (the emulator stops).
    func removeAll() {
        for name in Set(state.withLock { $0.devices.map(\.name) }) { try? remove(name: name) }
    }

    /// `struct input_event` on 64-bit Linux: seconds and microseconds (8 bytes each), type,
    /// code, value.
    static func event(type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        var time = timeval()
        gettimeofday(&time, nil)
        func bytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        return bytes(Int64(time.tv_sec)) + bytes(Int64(time.tv_usec)) + bytes(type) + bytes(code) + bytes(value)
    }

    /// The listing, in `/proc/bus/input/devices`' format, written whole (renamed into place).
    private func writeListing(_ devices: [Device]) throws {
        let text = devices.map { device in
            """
            I: Bus=0005 Vendor=0000 Product=0000 Version=0000
            N: Name="\(device.name)"
            P: Phys=\(device.phys.lowercased())
            S: Sysfs=/devices/virtual/input/input\(device.number)
            U: Uniq=
            H: Handlers=kbd event\(device.number)
            B: PROP=0
            B: EV=100007

            """
        }.joined(separator: "\n")
        try text.write(toFile: devicesFile, atomically: true, encoding: .utf8)
    }
}
