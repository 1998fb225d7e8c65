import Foundation
import Synchronization

/// Reads the glasses' touches from the input device bluetoothd makes for their AVRCP keys
/// (see ``GlassesButtonEvent``). The device appears when AVRCP connects, which may be after
/// the reader starts: `/dev/input` is watched (inotify) and the node opened once it is there.
/// Everything waits on `poll(2)` in one thread of its own, which a socket pair wakes to stop
/// (`send` with `MSG_NOSIGNAL`: a second `stop`, after the thread has gone, is no SIGPIPE).
public final class GlassesButtonReader: Sendable {
    /// The touches (presses and releases), in order; finished when the reader stops.
    public let events: AsyncStream<GlassesButtonEvent>
    /// What the reader is doing, in words (for a status line): "waiting for …", "reading …".
    public var state: String { stateBox.value.withLock { $0 } }
    private let stateBox = StateBox()
    private let stopPipe: (read: Int32, write: Int32)

    /// Starts reading the touches of the glasses at `address`, called `name` (BlueZ's name for them).
    public init(address: String, name: String?, devicesFile: String = "/proc/bus/input/devices", inputDirectory: String = "/dev/input") throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw BluezError("cannot make a socket pair for the button reader: \(String(cString: strerror(errno)))")
        }
        stopPipe = (fds[0], fds[1])
        let (stream, continuation) = AsyncStream<GlassesButtonEvent>.makeStream()
        events = stream
        let stopFD = fds[0]
        let box = stateBox
        // Looked up once here, so that `state` says at once whether the device is there.
        let initial = Self.openDevice(address: address, name: name, devicesFile: devicesFile, inputDirectory: inputDirectory, state: box)
        let thread = Thread {
            Self.run(address: address, name: name, devicesFile: devicesFile, inputDirectory: inputDirectory, initial: initial, stop: stopFD, state: box) {
                continuation.yield($0)
            }
            continuation.finish()
        }
        thread.name = "glasses-button"
        thread.start()
    }

    /// Where the kernel's input devices are listed and their nodes are: `/proc/bus/input/devices`
    /// and `/dev/input`, unless the environment names others (the emulator's sandbox plays them
    /// in a folder of its own and says where: GLASSES_AUDIO_INPUT_DEVICES, GLASSES_AUDIO_INPUT_DIR).
    public static func inputPaths(_ environment: [String: String]) -> (devicesFile: String, inputDirectory: String) {
        (environment["GLASSES_AUDIO_INPUT_DEVICES"] ?? "/proc/bus/input/devices", environment["GLASSES_AUDIO_INPUT_DIR"] ?? "/dev/input")
    }

    public func stop() {
        var byte: UInt8 = 1
        _ = send(stopPipe.write, &byte, 1, Int32(MSG_NOSIGNAL))
    }

    deinit {
        stop()
        close(stopPipe.write)
    }

    /// Opens the device's event node if `devicesFile` lists one for `address`; -1 otherwise.
    private static func openDevice(address: String, name: String?, devicesFile: String, inputDirectory: String, state box: StateBox) -> Int32 {
        let listed = InputDevices.parse((try? String(contentsOfFile: devicesFile, encoding: .utf8)) ?? "")
        guard let node = InputDevices.eventNode(forAddress: address, name: name, in: listed) else {
            box.value.withLock { $0 = "waiting for the input device of \(name ?? address) (AVRCP)" }
            return -1
        }
        let device = open("\(inputDirectory)/\(node)", O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        let problem = String(cString: strerror(errno))
        box.value.withLock { $0 = device >= 0 ? "reading \(inputDirectory)/\(node)" : "cannot open \(inputDirectory)/\(node): \(problem)" }
        return device
    }

    private static func run(
        address: String, name: String?, devicesFile: String, inputDirectory: String, initial: Int32, stop: Int32, state box: StateBox,
        yield: (GlassesButtonEvent) -> Void
    ) {
        defer { close(stop) }
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        defer { if watch >= 0 { close(watch) } }
        if watch >= 0 { _ = inotify_add_watch(watch, inputDirectory, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO)) }
        var device = initial
        defer { if device >= 0 { close(device) } }
        var decoder = InputEventDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if device < 0 {
                device = openDevice(address: address, name: name, devicesFile: devicesFile, inputDirectory: inputDirectory, state: box)
                decoder = InputEventDecoder()
            }
            var fds = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0), pollfd(fd: watch, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: device, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { return }
            if fds[0].revents != 0 { return }
            if fds[1].revents != 0 { _ = read(watch, &buffer, buffer.count) }  // a node appeared: look again
            if fds[2].revents != 0 {
                let count = read(device, &buffer, buffer.count)
                if count < 0, errno == EAGAIN || errno == EINTR { continue }
                if count <= 0 {  // the device went away (AVRCP or the link dropped): wait for the next one
                    close(device)
                    device = -1
                    continue
                }
                for touch in decoder.feed(Array(buffer[0..<count])) { yield(touch) }
            }
        }
    }
}

/// The reader's state, shared with its thread.
final class StateBox: Sendable {
    let value = Mutex("starting")
}
