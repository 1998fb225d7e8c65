import ArgumentParser
import AudioCore
import DeviceProfiles
import Foundation
import GlassesEmulator
import Logging

/// `glasses-emulator`: Bluetooth glasses for a sound server on a machine without a radio.
struct GlassesEmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glasses-emulator",
        abstract: "Emulate Bluetooth glasses: a fake BlueZ and oFono that a real PulseAudio takes for an adapter with glasses.",
        discussion: """
            Without --bus it starts a private D-Bus and a private PulseAudio with its bluetooth modules (--sound-server \
            pipewire: PipeWire, WirePlumber and pipewire-pulse), and prints \
            the PULSE_SERVER to give glasses-audio. Commands on stdin (or --script): connect, disconnect, battery N \
            (percent, 0-100), status, wait server (until a sound server registered), quit.
            Example:
              glasses-emulator --profile ray-ban-meta-gen-2 --mic samples/hey-glasses.wav
              PULSE_SERVER=<printed> glasses-audio monitor
            """)

    @Option(help: "The bus to serve org.bluez and org.ofono on (a sound server's system bus). Default: a private sandbox.")
    var bus: String?

    @Option(name: .customLong("sound-server"), help: "The sandbox's sound server: pulseaudio or pipewire (PipeWire with WirePlumber's Bluetooth monitor).")
    var soundServer: Sandbox.SoundServer = .pulseaudio

    @Option(help: "The device profile to look like (an id from profiles/).")
    var profile = "ray-ban-meta-gen-2"

    @Option(help: "The folder of device profiles.")
    var profiles: String?

    @Option(help: "A WAV or Ogg Opus file the glasses' mic plays once the voice link opens.")
    var mic: String?

    @Flag(help: "Play the mic file in a loop.")
    var loop = false

    @Flag(help: "Start with the glasses disconnected (folded).")
    var disconnected = false

    @Option(help: "Commands to run, with waits: \"2s connect; 5s disconnect; 1s quit\".")
    var script: String?

    @Option(help: "A folder to write what the speakers played (the latest 10 minutes) into, as voice.wav and media.wav, when the emulator ends.")
    var speakerOut: String?

    func validate() throws {
        if bus != nil && soundServer != .pulseaudio {
            throw ValidationError("--sound-server picks the sandbox's server; with --bus the sound server is yours")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger = Logger(label: "glasses-emulator")
        let library = ProfileLibrary.load(directory: profiles ?? ProfileLibrary.defaultDirectory())
        guard let deviceProfile = library.profile(id: profile) else {
            throw ValidationError("no profile \"\(profile)\"; known: \(library.profiles.map(\.id).sorted().joined(separator: ", "))")
        }
        let audio = EmulatedAudio()
        if let mic { try audio.setMic(try AudioFileReader.read(mic), loop: loop) }

        var sandbox: Sandbox?
        let busAddress: String
        if let bus {
            busAddress = bus
        } else {
            let box = try Sandbox()
            sandbox = box
            try box.startBus()
            busAddress = box.busAddress
        }
        defer { sandbox?.stop() }
        let emulator = try await GlassesEmulator.start(
            busAddress: busAddress, glasses: EmulatedGlasses(profile: deviceProfile), audio: audio, logger: logger)
        defer { emulator.close() }
        if let sandbox {
            switch soundServer {
            case .pulseaudio: try sandbox.startPulseAudio()
            case .pipewire: try sandbox.startPipeWire()
            }
            print("PULSE_SERVER=\(sandbox.pulseServer)")
            print("DBUS_SYSTEM_BUS_ADDRESS=\(sandbox.busAddress)")
            fflush(nil)
        }
        if !disconnected { try emulator.connect() }

        let commands = script.map(Self.scripted) ?? Self.standardInput()
        let work = Task {
            for await command in commands {
                if command == "quit" { return }
                do {
                    if command == "wait server" {
                        try await Self.waitForSoundServer(emulator)
                    } else {
                        try Self.perform(command, on: emulator)
                    }
                } catch {
                    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                }
            }
            try? await Task.sleep(for: .seconds(1_000_000))  // stdin closed: run until Ctrl-C
        }
        let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { work.cancel() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        await work.value
        if let speakerOut {
            try FileManager.default.createDirectory(atPath: speakerOut, withIntermediateDirectories: true)
            try WAVFile.write(audio.voiceSpeaker(), to: speakerOut + "/voice.wav")
            try WAVFile.write(audio.mediaSpeaker(), to: speakerOut + "/media.wav")
            logger.info("speaker audio written to \(speakerOut)/voice.wav and media.wav")
        }
    }

    /// Waits (up to 30 s) until a sound server has registered for media and calls.
    static func waitForSoundServer(_ emulator: GlassesEmulator) async throws {
        for _ in 0..<600 {
            if emulator.soundServerRegistered { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw SandboxError("no sound server registered within 30 s; is PulseAudio running with module-bluez5-discover headset=ofono on this bus?")
    }

    static func perform(_ command: String, on emulator: GlassesEmulator) throws {
        switch command {
        case "connect": try emulator.connect()
        case let battery where battery.hasPrefix("battery"):
            let argument = battery.dropFirst("battery".count).trimmingCharacters(in: .whitespaces)
            guard let level = Int(argument), (0...100).contains(level) else {
                throw ValidationError("battery takes a level in percent, 0-100 (got \"\(argument)\")")
            }
            try emulator.setBattery(level)
        case "disconnect": try emulator.disconnect()
        case "status":
            let s = emulator.statistics
            print(
                "\(emulator.glasses.name) \(emulator.glasses.address): \(emulator.isConnected ? "connected" : "disconnected"); "
                    + "sound server \(emulator.soundServerRegistered ? "registered" : "not registered"); "
                    + "A2DP acquired \(s.mediaAcquisitions)x, voice link opened \(s.voiceAcquisitions)x; "
                    + "packets: media \(s.mediaPackets), mic \(s.voicePacketsToServer), speaker \(s.voicePacketsFromServer); "
                    + "battery \(emulator.battery)%")
            fflush(nil)
        case "": break
        default: throw ValidationError("unknown command \"\(command)\"; try connect, disconnect, battery N, status, wait server or quit")
        }
    }

    /// "2s connect; 500ms disconnect" → commands after their waits.
    static func scripted(_ script: String) -> AsyncStream<String> {
        AsyncStream { continuation in
            let task = Task {
                for step in script.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    var words = step.split(separator: " ").map(String.init)
                    if let wait = words.first.flatMap(Self.duration) {
                        try? await Task.sleep(for: wait)
                        words.removeFirst()
                    }
                    continuation.yield(words.joined(separator: " "))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func duration(_ word: String) -> Duration? {
        if word.hasSuffix("ms"), let value = Int(word.dropLast(2)) { return .milliseconds(value) }
        if word.hasSuffix("s"), let value = Double(word.dropLast()) { return .milliseconds(Int(value * 1000)) }
        return nil
    }

    static func standardInput() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine() { continuation.yield(line.trimmingCharacters(in: .whitespaces)) }
                continuation.finish()
            }
            thread.start()
        }
    }
}

extension Sandbox.SoundServer: ExpressibleByArgument {}

// Exit codes as glasses-audio's: 0 ok, 1 runtime error, 2 usage error.
do {
    let command = try GlassesEmulatorCommand.parse()
    try await command.run()
} catch {
    let code = GlassesEmulatorCommand.exitCode(for: error)
    if code == .validationFailure {
        FileHandle.standardError.write(Data((GlassesEmulatorCommand.fullMessage(for: error) + "\n").utf8))
        exit(2)
    }
    GlassesEmulatorCommand.exit(withError: error)
}
