import Assistant
import AssistantAssembly
import AssistantService
import ESPHomeAPI
import ESPHomeServer
import Foundation
import Logging
import WyomingServer

/// Binds ESPHome's native API on `bind`:`esphome-port` as the device kept in the data
/// directory (its MAC-like id made once, so Home Assistant recognises the glasses across
/// restarts), named after the assistant. "Mute microphone" puts the assistant to sleep (its
/// route and microphone let go) and wakes it; HA's timers go on the daemon's timer board, as
/// Wyoming's do; its "Wake word" select switches the wake word (``ESPHomeWakeWords``).
enum ESPHomeAssembly {
    static func bind(
        configuration: DaemonConfiguration, friendlyName: String, assistant: AssistantService, state: AssistantState,
        voice: ESPHomeVoiceSatellite, timers: VoiceTimerBoard, wakeWords: ESPHomeWakeWords, logger: Logger
    ) async throws -> ESPHomeServer {
        let announcements = ESPHomeAnnouncements(assistant: assistant, logger: logger)
        let seed = try deviceSeed(in: configuration.dataDirectory)
        let device = ESPHomeDevice.withSeed(seed, friendlyName: friendlyName)
        let controls = ESPHomeDeviceControls(
            state: {
                ESPHomeDeviceState(
                    microphoneMuted: await assistant.phase == .asleep, wakeWord: wakeWords.active, availableWakeWords: wakeWords.offered())
            },
            setMicrophoneMuted: { muted in
                if muted { await assistant.sleep() } else { await assistant.wake() }
            },
            listen: { assistant.trigger(skipWake: true) },
            timer: { change in timers.apply(change) },
            announce: { announcement in await announcements.play(announcement) },
            setWakeWord: { option in await wakeWords.choose(option) },
            playMedia: { url, gain in
                await announcements.play(ESPHomeAnnouncement(preannounceURL: nil, mediaURL: url, text: "", startConversation: false), gain: gain)
            })
        let key: [UInt8]?
        switch configuration.esphomeKey {
        case .none: key = nil
        case .given(let bytes): key = bytes
        case .generated:
            let (bytes, path) = try encryptionKey(in: configuration.dataDirectory)
            logger.info("esphome: encryption key in \(path) (Home Assistant asks for it when adding the device)")
            key = bytes
        }
        return try await ESPHomeServer.bind(
            host: configuration.bind, port: configuration.esphomePort, device: device, encryptionKey: key, controls: controls, voice: voice,
            logger: logger)
    }

    /// The key kept in `DATA_DIR/esphome_key` (base64 of 32 bytes, mode 0600), made on first use.
    static func encryptionKey(in directory: String) throws -> (key: [UInt8], path: String) {
        let path = (directory as NSString).appendingPathComponent("esphome_key")
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            guard case .given(let key) = ESPHomeKeySetting(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw DaemonError("\(path) holds no ESPHome encryption key (base64 of 32 bytes expected): delete it to have a new one made")
            }
            _ = chmod(path, 0o600)
            return (key, path)
        }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try AtomicFile.write(Data((Data(key).base64EncodedString() + "\n").utf8), to: path, mode: 0o600)
        return (key, path)
    }

    /// Six random bytes kept in `DATA_DIR/esphome_device` (12 hex digits), made on first use.
    static func deviceSeed(in directory: String) throws -> [UInt8] {
        let path = (directory as NSString).appendingPathComponent("esphome_device")
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let hex = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard hex.count == 12, let bytes = bytes(hex) else {
                throw DaemonError("\(path) holds no ESPHome device id (12 hex digits expected): delete it to have a new one made (Home Assistant then sees a new device)")
            }
            return bytes
        }
        var generator = SystemRandomNumberGenerator()
        let seed = (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try AtomicFile.write(Data((seed.map { String(format: "%02x", $0) }.joined() + "\n").utf8), to: path)
        return seed
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex)
        return stride(from: 0, to: digits.count, by: 2).map { index -> UInt8? in UInt8(String(digits[index...index + 1]), radix: 16) }
            .reduce(into: [UInt8]?([])) { result, byte in
                guard let byte, result != nil else { result = nil; return }
                result?.append(byte)
            }
    }
}
