import Foundation
import Store
import Synchronization

/// The companion app's side of the glasses' host, between BlueZ's calls and the daemon: reads
/// answered at once from the pairing window and the host's values, writes carried out in the
/// order they came (one consumer of the deferred calls), notifications sent to the
/// characteristics a phone subscribed to. The pairing window decides; this carries out its
/// actions: the code to speak, the deadline to tick at, the events to publish, in order.
public final class CompanionPeripheral: Sendable {
    struct State {
        var window: PairingWindow
        var notifying: Set<CompanionCharacteristic> = []
        /// The phone the key was last given to: it may read the rest of it (a long read comes
        /// at growing offsets), nobody else.
        var keyReader: String?
        var actionResponse: [UInt8] = CompanionReadout.readyResponse
        var statusMode = "active"
        /// Why pairing cannot start now (no BlueZ, no LE adapter, not registered yet); nil when it can.
        var unavailable: String? = "Bluetooth LE is not registered with BlueZ yet"
        var wifi = WifiReport(status: .disconnected)
        /// The network the app named last (the password write joins it).
        var wifiSSID: String?
        /// The app asked to restart the service: carried out once the write was answered.
        var restartAsked = false
        /// Data Sync's lists as the phone wrote them last (`[]` when it never did).
        var lists: [DataSyncList: [UInt8]] = [:]
    }

    public let host: any CompanionHost
    let state: Mutex<State>
    let clock: ContinuousClock
    private let codes: Mutex<any RandomNumberGenerator & Sendable>
    /// Set by the D-Bus application: sends a value to the phones subscribed to it.
    let notifier = Mutex<(@Sendable (CompanionCharacteristic, [UInt8]) -> Void)?>(nil)
    /// Set by the owner once it has a system bus: joins Wi-Fi networks through NetworkManager.
    let wifiClient = Mutex<NetworkManagerWifi?>(nil)

    /// Codes to speak, deadlines to tick at, events to publish: each read by one task of the owner, in order.
    public let speech: AsyncStream<PairingCode>
    public let deadlines: AsyncStream<ContinuousClock.Instant>
    public let events: AsyncStream<PairingEvent>
    /// Names to advertise from now on (the assistant was renamed).
    public let renames: AsyncStream<String>
    private let renameSink: AsyncStream<String>.Continuation
    private let speechSink: AsyncStream<PairingCode>.Continuation
    private let deadlineSink: AsyncStream<ContinuousClock.Instant>.Continuation
    private let eventSink: AsyncStream<PairingEvent>.Continuation

    /// - Parameters:
    ///   - windowLength: how long a pairing window stays open.
    ///   - codes: where pairing codes come from (the system's random source in the daemon).
    ///   - pairedPhones: the phones paired before (BlueZ's device paths), kept by the host.
    public init(
        host: any CompanionHost, windowLength: Duration = .seconds(120), clock: ContinuousClock = ContinuousClock(),
        codes: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(), pairedPhones: Set<String> = []
    ) {
        self.host = host
        self.clock = clock
        self.codes = Mutex(codes)
        var initial = State(window: PairingWindow(openFor: windowLength, pairedDevices: pairedPhones))
        for list in DataSyncList.allCases { initial.lists[list] = host.syncedList(list).map(Array.init) }
        state = Mutex(initial)
        (speech, speechSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (deadlines, deadlineSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (renames, renameSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Advertises `name` from now on (the owner registers the advertisement again: BlueZ reads
    /// its properties only then).
    public func advertise(name: String) {
        renameSink.yield(name)
    }

    /// Ends the streams (the owner's tasks end with them).
    public func finish() {
        speechSink.finish()
        deadlineSink.finish()
        eventSink.finish()
        renameSink.finish()
    }

    // MARK: the pairing window

    /// Opens a pairing window with a fresh code, which the glasses then speak; throws (with
    /// the reason) when Bluetooth LE cannot pair now. Returns how long the window stays open.
    public func openWindow() throws(CompanionUnavailable) -> Duration {
        try requestWindow { $0.open(code: $1, now: $2) }
    }

    /// Opens a pairing window unless one is open, which then stays as it is (the glasses'
    /// button: see ``PairingWindow/openUnlessOpen(code:now:)``); throws as ``openWindow()``.
    public func openWindowUnlessOpen() throws(CompanionUnavailable) {
        _ = try requestWindow { $0.openUnlessOpen(code: $1, now: $2) }
    }

    /// The one way a window is asked for: refused while pairing cannot start, else `open`
    /// decides with a fresh code, and its actions are carried out. Returns a window's length.
    private func requestWindow(
        _ open: (inout PairingWindow, PairingCode, ContinuousClock.Instant) -> [PairingAction]
    ) throws(CompanionUnavailable) -> Duration {
        let (actions, length): ([PairingAction], Duration) = try state.withLock { state throws(CompanionUnavailable) in
            if let reason = state.unavailable { throw CompanionUnavailable(reason: reason) }
            let code = codes.withLock { generator in PairingCode.random(using: &generator) }
            return (open(&state.window, code, clock.now), state.window.openFor)
        }
        perform(actions)
        return length
    }

    /// Called at a deadline: a window past it closes.
    public func tick() {
        perform(state.withLock { $0.window.tick(now: clock.now) })
    }

    /// Whether pairing can start, or why not (said by `POST /api/pairing`).
    public func setAvailability(_ reason: String?) {
        state.withLock { $0.unavailable = reason }
    }

    public var windowState: String { state.withLock { $0.window.stateText } }

    private func perform(_ actions: [PairingAction]) {
        for action in actions {
            switch action {
            case .speak(let code): speechSink.yield(code)
            case .closeAt(let deadline): deadlineSink.yield(deadline)
            case .event(let event): eventSink.yield(event)
            case .notifyState:
                let (text, status) = state.withLock { ($0.window.stateText, $0.window.status(for: nil)) }
                notify(.pairingCode, Array(text.utf8))
                notify(.pairingStatus, [status])
            }
        }
    }

    // MARK: GATT operations

    /// A read: refused as BlueZ expects, or the value from `offset`.
    func read(_ characteristic: CompanionCharacteristic, device: String?, offset: Int) throws(GATTError) -> [UInt8] {
        let window = state.withLock { $0.window }
        try CompanionAccess.read(characteristic, device: device, window: window)
        return try CompanionAccess.slice(try value(characteristic, device: device, offset: offset), offset: offset)
    }

    private func value(_ characteristic: CompanionCharacteristic, device: String?, offset: Int) throws(GATTError) -> [UInt8] {
        let info = host.deviceInformation
        switch characteristic {
        case .manufacturerName: return Array(info.manufacturer.utf8)
        case .modelNumber: return Array(info.model.utf8)
        case .serialNumber: return Array(info.serial.utf8)
        case .firmwareRevision: return Array(info.firmware.utf8)
        case .batteryLevel:
            guard let level = host.batteryLevel else { throw GATTError(.notSupported, "the glasses report no battery level") }
            return [UInt8(clamping: level)]
        case .apiKey: return try releaseKey(to: device, offset: offset)
        case .pairingCode: return Array(state.withLock { $0.window.stateText }.utf8)
        case .pairingStatus: return [state.withLock { $0.window.status(for: device) }]
        case .personality, .assistantName, .wakeWordConfig, .voiceSettings:
            return CompanionReadout.setting(characteristic, of: host.settings) ?? []
        case .statusMode: return Array(state.withLock { $0.statusMode }.utf8)
        case .actionResponse: return state.withLock { $0.actionResponse }
        // The assistant itself makes no notes or todos: Data Sync holds the phone's lists, `[]` until it writes one.
        case .notesData: return state.withLock { $0.lists[.notes] } ?? Array("[]".utf8)
        case .todosData: return state.withLock { $0.lists[.todos] } ?? Array("[]".utf8)
        case .wifiStatus: return Array(state.withLock { $0.wifi.status.rawValue }.utf8)
        case .networkInfo: return state.withLock { $0.wifi.networkInfo }
        case .cameraControl, .systemControl, .wifiSSID, .wifiPassword:
            throw GATTError(.notSupported, "\(characteristic.title) is not served yet")
        }
    }

    /// The API key, to the phone whose code was accepted: released at offset 0 (once), and
    /// the rest of the same read at later offsets to that phone only.
    private func releaseKey(to device: String?, offset: Int) throws(GATTError) -> [UInt8] {
        guard let device else { throw GATTError(.notPermitted, "the API key is given only to a phone BlueZ names") }
        let key = Array(host.apiKey.utf8)
        if offset > 0 {
            guard state.withLock({ $0.keyReader }) == device else {
                throw GATTError(.notPermitted, "read the API key from its start, after writing the spoken code")
            }
            return key
        }
        let (result, actions) = state.withLock { state in
            let outcome = state.window.releaseKey(to: device, now: clock.now)
            if case .success = outcome.0 { state.keyReader = device }
            return outcome
        }
        perform(actions)
        try result.get()
        return key
    }

    /// A write, carried out (settings through the host's one settings path) or refused.
    func write(_ characteristic: CompanionCharacteristic, bytes: [UInt8], device: String?, offset: Int) async throws(GATTError) {
        let window = state.withLock { $0.window }
        try CompanionAccess.write(characteristic, device: device, window: window)
        let write = try CompanionWrite.decode(bytes, offset: offset, to: characteristic)
        switch write {
        case .pairingCode(let digits):
            guard let device else { throw GATTError(.notPermitted, "a pairing code is taken only from a phone BlueZ names") }
            let (result, actions) = state.withLock { $0.window.submit(PairingCode(text: digits)!, from: device, now: clock.now) }
            perform(actions)
            try result.get()
        case .pairingStatus(let value):
            // Seed 001's app writes 2 once paired; that confirms, nothing else is taken.
            guard value == 2, let device, window.hasProved(device) else {
                throw GATTError(.notPermitted, "pairing status is set by writing the spoken code, then reading the API key")
            }
        case .setting(let field, let body):
            do {
                _ = try await host.changeSetting(field, body: body)
            } catch let refusal as SettingsRefusal {
                throw GATTError(.invalidArguments, refusal.description)
            } catch {
                throw GATTError(.failed, "the setting was not stored: \(error)")
            }
        case .system(.restart):
            // The phone hears the answer first; the owner restarts once the write is answered.
            setActionResponse(CompanionReadout.actionResponse(success: true, ["message": "Restarting the service"]))
            state.withLock { $0.restartAsked = true }
        case .system(let command):
            await host.control(command)
            let mode = command == .sleep ? "sleep" : "active"
            setActionResponse(CompanionReadout.actionResponse(success: true, ["message": command == .sleep ? "Going to sleep" : "Waking up"]))
            statusModeChanged(mode)
        case .camera:
            setActionResponse(CompanionReadout.actionResponse(success: false, ["error": "this host has no camera"]))
        case .wifiSSID(let ssid):
            state.withLock { $0.wifiSSID = ssid }
        case .wifiPassword(let password):
            guard let ssid = state.withLock({ $0.wifiSSID }) else {
                throw GATTError(.invalidArguments, "write the network's SSID before its password")
            }
            guard let wifi = wifiClient.withLock({ $0 }) else {
                let reason = state.withLock { $0.wifi.reason } ?? "there is no system bus to reach NetworkManager"
                throw GATTError(.failed, reason)
            }
            try await wifi.connect(ssid: ssid, password: password)
        case .notes(let data): try keep(.notes, data)
        case .todos(let data): try keep(.todos, data)
        }
    }

    /// Stores a checked Data Sync list in place of the last one, then notifies it.
    private func keep(_ list: DataSyncList, _ data: Data) throws(GATTError) {
        do {
            try host.storeList(list, data)
        } catch {
            throw GATTError(.failed, "\(list.characteristic.title) was not stored: \(error)")
        }
        state.withLock { $0.lists[list] = Array(data) }
        notify(list.characteristic, Array(data))
    }

    /// Whether the app asked to restart the service since the last call (asked once, taken once).
    public func takeRestartRequest() -> Bool {
        state.withLock { state in
            defer { state.restartAsked = false }
            return state.restartAsked
        }
    }

    /// NetworkManager's news of the Wi-Fi device: kept for reads, the status notified when it changes.
    public func wifiChanged(_ report: WifiReport) {
        let changed = state.withLock { state in
            defer { state.wifi = report }
            return state.wifi.status != report.status
        }
        if changed { notify(.wifiStatus, Array(report.status.rawValue.utf8)) }
    }

    /// Joins networks through `client` from now on.
    public func useWifi(_ client: NetworkManagerWifi?) {
        wifiClient.withLock { $0 = client }
    }

    private func setActionResponse(_ value: [UInt8]) {
        state.withLock { $0.actionResponse = value }
        notify(.actionResponse, value)
    }

    /// The assistant went to sleep or woke by other means (the REST API, the button).
    public func statusModeChanged(_ mode: String) {
        let changed = state.withLock { state in
            defer { state.statusMode = mode }
            return state.statusMode != mode
        }
        if changed { notify(.statusMode, Array(mode.utf8)) }
    }

    func startNotify(_ characteristic: CompanionCharacteristic) throws(GATTError) {
        try CompanionAccess.notify(characteristic)
        _ = state.withLock { $0.notifying.insert(characteristic) }
    }

    func stopNotify(_ characteristic: CompanionCharacteristic) throws(GATTError) {
        try CompanionAccess.notify(characteristic)
        _ = state.withLock { $0.notifying.remove(characteristic) }
    }

    func isNotifying(_ characteristic: CompanionCharacteristic) -> Bool {
        state.withLock { $0.notifying.contains(characteristic) }
    }

    private func notify(_ characteristic: CompanionCharacteristic, _ value: [UInt8]) {
        guard isNotifying(characteristic), let send = notifier.withLock({ $0 }) else { return }
        send(characteristic, value)
    }
}

/// Why a pairing window cannot open now.
public struct CompanionUnavailable: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
