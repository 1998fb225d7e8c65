import BluetoothIDs
import AudioCore
import DBusKit
import Foundation
public import Logging
import Synchronization

/// Bluetooth glasses without a radio: a faithful fake of the `org.bluez` and `org.ofono`
/// services on a bus, which a real PulseAudio's bluetooth modules (`module-bluez5-discover
/// headset=ofono`) take for a real adapter with real glasses. The media link (A2DP, SBC) and
/// the voice link (HFP through oFono, CVSD) are socket pairs whose far ends go to the sound
/// server over D-Bus, as BlueZ and oFono hand over their L2CAP and SCO sockets; the glasses'
/// mic plays a signal into the voice link and their speakers record what arrives.
///
/// Two bus connections, one per service, as with the real daemons (PulseAudio checks that
/// oFono's signals come from the connection that answered its registration).
public final class GlassesEmulator: Sendable {
    public static let adapterPath = "/org/bluez/hci0"
    public static let adapterAddress = "00:1A:7D:DA:71:13"

    public let glasses: EmulatedGlasses
    public let audio: EmulatedAudio
    /// Where bluetoothd's input device for the glasses' AVRCP keys appears (none: keys go nowhere).
    public let inputDevices: EmulatedInputDevices?
    let bluez: DBusObjectServer
    let ofono: DBusObjectServer
    let logger: Logger
    let state = Mutex(EmulatorState())
    /// Work the emulator does in the background, cancelled by `close()`.
    let tasks = EmulatorTasks()

    /// BlueZ's object path for the glasses: `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`.
    public var devicePath: String { BluezPath.device(adapter: Self.adapterPath, address: glasses.address) }
    /// oFono's short card path: BlueALSA keeps `"/ofono" + path` in 32 characters and a longer
    /// one is cut (its `Connect` then fails with UnknownObject).
    var cardPath: String { "/card_1" }

    /// Takes the `org.bluez` and `org.ofono` names on the bus at `busAddress` and publishes
    /// the adapter and the (paired, not yet connected) glasses.
    /// `inputDevices`: where the glasses' AVRCP keys arrive, as bluetoothd's uinput device.
    public static func start(
        busAddress: String, glasses: EmulatedGlasses, audio: EmulatedAudio = EmulatedAudio(),
        inputDevices: EmulatedInputDevices? = nil, logger: Logger = Logger(label: "glasses-emulator")
    ) async throws -> GlassesEmulator {
        let emulator = try GlassesEmulator(busAddress: busAddress, glasses: glasses, audio: audio, inputDevices: inputDevices, logger: logger)
        do {
            try await emulator.publish()
        } catch {
            emulator.close()
            throw error
        }
        return emulator
    }

    private init(busAddress: String, glasses: EmulatedGlasses, audio: EmulatedAudio, inputDevices: EmulatedInputDevices?, logger: Logger) throws {
        self.glasses = glasses
        self.audio = audio
        self.inputDevices = inputDevices
        self.logger = logger
        bluez = DBusObjectServer(connection: try DBusConnection(address: busAddress))
        ofono = DBusObjectServer(connection: try DBusConnection(address: busAddress))
    }

    /// Takes the names off the bus and ends the links, as if both daemons stopped.
    public func close() {
        let links = state.withLock { state in
            defer { state.a2dp = nil; state.sco = nil }
            return [state.a2dp as AudioLink?, state.sco].compactMap { $0 }
        }
        tasks.cancelAll()
        for link in links { link.stop() }
        inputDevices?.removeAll()
        bluez.connection.close()
        ofono.connection.close()
    }

    // MARK: what the glasses do

    /// Whether the glasses are connected (on, unfolded, in range).
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Whether a sound server has registered an A2DP endpoint with "BlueZ" (BlueALSA without
    /// hands-free registers no oFono agent).
    public var mediaEndpointRegistered: Bool { state.withLock { $0.soundServer?.endpoint != nil } }

    /// Whether a sound server has registered with "BlueZ" for media and with "oFono" for calls.
    public var soundServerRegistered: Bool { state.withLock { $0.soundServerRegistered } }

    /// Returns once a sound server has registered with "BlueZ" for media and with "oFono" for
    /// calls (at once when it has): woken by the registration itself, never polled. Throws
    /// `CancellationError` when the calling task is cancelled first.
    public func soundServerRegistration() async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let waiting = state.withLock { state in
                    guard !state.soundServerRegistered, !Task.isCancelled else { return false }
                    state.registrationWaiters[id] = waiter
                    return true
                }
                guard !waiting else { return }
                if Task.isCancelled { waiter.resume(throwing: CancellationError()) } else { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.registrationWaiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// The glasses connect: Device1 says Connected, BlueZ configures the A2DP transport with
    /// the sound server's SBC endpoint, and then oFono announces the hands-free card. A2DP
    /// comes first, as with most headsets (the hands-free link needs its AT handshake), so a
    /// sound server sees both profiles in the same order every time.
    public func connect() throws {
        let already = state.withLock { state in
            defer { state.connected = true }
            return state.connected
        }
        guard !already else { return }
        logger.info("glasses connected", metadata: ["address": "\(glasses.address)"])
        try bluez.setProperties(devicePath, BluezName.device, ["Connected": .boolean(true)])
        if glasses.offersMedia { try bluez.add(remoteEndpointPath, [remoteEndpointInterface()]) }
        try bluez.setProperties(devicePath, BluezName.device, ["ServicesResolved": .boolean(true)])
        try configureMediaIfPossible()
        try announceCardIfDue()
        try connectKeys()
    }

    /// The glasses go away (folded, off, out of range): both links close, the transport and
    /// the card (and with it the battery) are withdrawn, Device1 says disconnected.
    /// The device stays known (paired).
    public func disconnect() throws {
        let wasConnected = state.withLock { state in
            defer {
                state.connected = false
                state.mediaSettled = false
                state.withdrawn = []
            }
            return state.connected
        }
        guard wasConnected else { return }
        logger.info("glasses disconnected", metadata: ["address": "\(glasses.address)"])
        try tearDownMedia()
        try tearDownVoice()
        try inputDevices?.remove(name: keysName)
        try bluez.remove(remoteEndpointPath)
        try bluez.setProperties(devicePath, BluezName.device, ["Connected": .boolean(false), "ServicesResolved": .boolean(false)])
    }

    /// Ends the A2DP link and withdraws its transport (the endpoint hears ClearConfiguration).
    func tearDownMedia() throws {
        let (a2dp, transport, endpoint) = state.withLock { state in
            defer {
                state.a2dp = nil
                state.transportPath = nil
            }
            return (state.a2dp, state.transportPath, state.soundServer?.endpoint)
        }
        a2dp?.stop()
        guard let transport else { return }
        if let endpoint {
            let message = try DBusMessage.methodCall(
                destination: endpoint.owner, path: endpoint.path, interface: BluezName.endpoint,
                member: "ClearConfiguration", [.objectPath(transport)])
            try bluez.connection.send(message)
        }
        try bluez.remove(transport)
    }

    /// Ends the voice link and withdraws the hands-free card (oFono's CardRemoved), and with the
    /// hands-free link the battery it carried.
    func tearDownVoice() throws {
        let (sco, wasShown) = state.withLock { state in
            defer {
                state.sco = nil
                state.cardShown = false
            }
            return (state.sco, state.cardShown)
        }
        sco?.stop()
        _ = wasShown  // a sound server ignores the removal of a card it never had
        try ofono.emit("/", OfonoName.manager, "CardRemoved", [.objectPath(cardPath)])
        try withdrawBattery()
    }

    /// Counters for what crossed the links so far.
    public var statistics: EmulatorStatistics {
        state.withLock { $0.statistics.counting(a2dp: $0.a2dp, sco: $0.sco) }
    }
}

/// What crossed the emulated links so far.
public struct EmulatorStatistics: Sendable, Equatable {
    public var mediaAcquisitions = 0
    public var voiceAcquisitions = 0
    public var mediaPackets = 0
    public var voicePacketsToServer = 0
    public var voicePacketsFromServer = 0
    /// Mic packets the sound server had not read in time (its socket was full): lost, as on air.
    public var voicePacketsDropped = 0

    /// These counters plus what these links carried.
    func counting(a2dp: A2DPLink?, sco: SCOLink?) -> EmulatorStatistics {
        var total = self
        total.mediaPackets += a2dp?.statistics.packetsIn ?? 0
        total.voicePacketsToServer += sco?.statistics.packetsOut ?? 0
        total.voicePacketsFromServer += sco?.statistics.packetsIn ?? 0
        total.voicePacketsDropped += sco?.statistics.dropped ?? 0
        return total
    }
}

/// The glasses' two audio profiles, as the host connects and disconnects them one by one.
enum AudioRole: Sendable, Hashable {
    /// HFP (`111e`), through oFono's card.
    case voice
    /// A2DP sink (`110b`), through BlueZ's transport.
    case media
}

struct EmulatorState: Sendable {
    /// The sound server's registration with "BlueZ": its unique name and the A2DP source SBC
    /// endpoint to configure.
    struct Endpoint: Sendable, Equatable {
        var owner: String
        var path: String
    }

    struct SoundServer: Sendable {
        var owner: String
        var endpoint: Endpoint?
    }

    var connected = false
    /// Profiles the host disconnected (`DisconnectProfile`) while the link stays up.
    var withdrawn: Set<AudioRole> = []
    /// The glasses' battery level, percent (reported or not).
    var battery = 80
    /// `Battery1` is on the bus: the glasses reported their level over the hands-free link.
    var batteryShown = false
    var soundServer: SoundServer? { didSet { resumeRegistrationWaiters() } }
    var transportPath: String?
    var transportCount = 0
    /// The media side is done for this connection: configured, refused, or not offered.
    var mediaSettled = false
    /// oFono has shown the card for this connection (GetCards or CardAdded): never twice, a
    /// sound server that sees a card twice takes it for two (PulseAudio asserts).
    var cardShown = false
    /// Whether oFono shows the card now: connected, and the media side settled (or no sound
    /// server registered for media, so nothing will settle it).
    func cardVisible(offersMedia: Bool) -> Bool {
        connected && !withdrawn.contains(.voice) && (!offersMedia || mediaSettled || soundServer == nil || withdrawn.contains(.media))
    }
    var agent: (owner: String, path: String)? { didSet { resumeRegistrationWaiters() } }
    /// Who waits in ``GlassesEmulator/soundServerRegistration()``.
    var registrationWaiters: [UUID: CheckedContinuation<Void, any Error>] = [:]

    /// Registered with "BlueZ" for media and with "oFono" for calls.
    var soundServerRegistered: Bool { soundServer != nil && agent != nil }

    /// Once registered, the waiters go on (resuming only schedules them).
    private mutating func resumeRegistrationWaiters() {
        guard soundServerRegistered, !registrationWaiters.isEmpty else { return }
        for waiter in registrationWaiters.values { waiter.resume() }
        registrationWaiters = [:]
    }
    var a2dp: A2DPLink? {
        willSet { if a2dp !== newValue { statistics = statistics.counting(a2dp: a2dp, sco: nil) } }
    }
    var sco: SCOLink? {
        willSet { if sco !== newValue { statistics = statistics.counting(a2dp: nil, sco: sco) } }
    }
    /// Counters of links that ended; those of open links are added when asked.
    var statistics = EmulatorStatistics()
    /// The LE peripheral's registrations (a GATT application, an advertisement).
    var gattApplication: GlassesEmulator.GATTApplication?
    var advertisement: GlassesEmulator.LEAdvertisement?
}
