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
            pipewire: PipeWire, WirePlumber and pipewire-pulse; --sound-server bluealsa: BlueALSA for the ALSA backend), and prints \
            the PULSE_SERVER to give glasses-audio. Commands on stdin (or --script): connect, disconnect, battery N \
            (the glasses report their level, percent, 0-100: BlueZ's Battery1 appears at the first report made over a \
            hands-free link a sound server holds; the glasses also report it as that link comes up), status, voice (the glasses \
            open the voice link), touch (AVRCP play: a key at bluetoothd's input device for the glasses, see \
            GLASSES_AUDIO_INPUT_DEVICES), wait server (until a sound server registered), quit.
            Example:
              glasses-emulator --profile ray-ban-meta-gen-2 --mic samples/hey-glasses-what-time.wav --loop --echo-db -10
              PULSE_SERVER=<printed> glasses-audio monitor
            """)

    @Option(help: "The bus to serve org.bluez and org.ofono on (a sound server's system bus). Default: a private sandbox.")
    var bus: String?

    @Option(name: .customLong("sound-server"), help: "The sandbox's sound server: pulseaudio, pipewire (PipeWire with WirePlumber's Bluetooth monitor) or bluealsa (BlueALSA for the ALSA backend: glasses-audio --backend alsa with the printed DBUS_SYSTEM_BUS_ADDRESS).")
    var soundServer: Sandbox.SoundServer = .pulseaudio

    @Option(help: "The device profile to look like (an id from profiles/).")
    var profile = "ray-ban-meta-gen-2"

    @Option(help: "The folder of device profiles.")
    var profiles: String?

    @Option(help: "A WAV or Ogg Opus file the glasses' mic plays once the voice link opens.")
    var mic: String?

    @Flag(help: "Play the mic file in a loop.")
    var loop = false

    @Option(name: .customLong("echo-db"), parsing: .unconditional, help: "An acoustic echo path: what the speakers play over the voice link comes back into the mic at this level (dB, e.g. -10).")
    var echoDB: Double?

    @Option(name: .customLong("echo-delay"), parsing: .unconditional, help: "The echo path's delay, in milliseconds.")
    var echoDelay: Double = 20

    @Option(name: .customLong("input-devices"), help: "A folder to play the kernel's input devices in: bluetoothd's device for the glasses' AVRCP keys (FOLDER/devices as /proc/bus/input/devices, FOLDER/input as /dev/input). Default: one in the sandbox; none with --bus.")
    var inputFolder: String?

    @Flag(help: "Start with the glasses disconnected (folded).")
    var disconnected = false

    @Option(help: "Commands to run, with waits: \"2s connect; 5s disconnect; 1s quit\" (waits within 0...86400 s; commands: \(EmulatorCommand.known)).",
            transform: { try EmulatorScript(parsing: $0) })
    var script: EmulatorScript?

    @Option(help: "A folder to write what the speakers played (the latest 10 minutes) into, as voice.wav and media.wav, when the emulator ends.")
    var speakerOut: String?

    func validate() throws {
        if bus != nil && soundServer != .pulseaudio {
            throw ValidationError("--sound-server picks the sandbox's server; with --bus the sound server is yours")
        }
        if let echoDB {
            guard echoDB.isFinite, (-60...20).contains(echoDB) else { throw ValidationError("--echo-db must be within -60...20 dB") }
            guard echoDelay.isFinite, (0...1000).contains(echoDelay) else { throw ValidationError("--echo-delay must be within 0...1000 ms") }
        }
    }

    func run() async throws {
        let stop = StopRequest()
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger = Logger(label: "glasses-emulator")
        let library = ProfileLibrary.load(directory: profiles ?? ProfileLibrary.defaultDirectory())
        let deviceProfile: DeviceProfile
        do { deviceProfile = try library.require(id: profile) } catch { throw ValidationError(error.description) }
        let audio = EmulatedAudio()
        if let mic { try audio.setMic(try AudioFileReader.read(mic), loop: loop) }
        if let echoDB {
            audio.setEchoPath(gainDB: echoDB, delay: .microseconds(Int64(echoDelay * 1000)))
        }

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
        let inputDevices = try (inputFolder ?? sandbox.map { $0.directory + "/input-devices" }).map { try EmulatedInputDevices(folder: $0) }
        let emulator = try await GlassesEmulator.start(
            busAddress: busAddress, glasses: EmulatedGlasses(profile: deviceProfile), audio: audio, inputDevices: inputDevices, logger: logger)
        defer { emulator.close() }
        if let sandbox {
            switch soundServer {
            case .pulseaudio: try sandbox.startPulseAudio()
            case .pipewire: try sandbox.startPipeWire()
            case .bluealsa: try sandbox.startBlueALSA()
            }
            if soundServer != .bluealsa { ConsoleIO.printLine("PULSE_SERVER=\(sandbox.pulseServer)") }
            ConsoleIO.printLine("DBUS_SYSTEM_BUS_ADDRESS=\(sandbox.busAddress)")
        }
        if let inputDevices {
            ConsoleIO.printLine("GLASSES_AUDIO_INPUT_DEVICES=\(inputDevices.devicesFile)")
            ConsoleIO.printLine("GLASSES_AUDIO_INPUT_DIR=\(inputDevices.inputDirectory)")
        }
        if !disconnected { try emulator.connect() }

        let commands = script.map(Self.scripted) ?? Self.standardInput()
        let work = Task {
            for await command in commands {
                do {
                    switch try command.get() {
                    case .quit: return
                    case .waitServer: try await Self.waitForSoundServer(emulator)
                    case .voice: try await emulator.openVoiceLinkFromGlasses()
                    case let other: try Self.perform(other, on: emulator)
                    }
                } catch {
                    ConsoleIO.printError("error: \(error)")
                }
            }
            try? await Task.sleep(for: .seconds(1_000_000))  // stdin closed: run until Ctrl-C
        }
        stop.onRequest { work.cancel() }
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
        guard try await withTimeout(.seconds(30), { try await emulator.soundServerRegistration() }) != nil else {
            throw SandboxError("no sound server registered within 30 s; is PulseAudio running with module-bluez5-discover headset=ofono on this bus?")
        }
    }

    /// Connect, disconnect or status (quit and wait server are the run loop's).
    static func perform(_ command: EmulatorCommand, on emulator: GlassesEmulator) throws {
        switch command {
        case .connect: try emulator.connect()
        case .disconnect: try emulator.disconnect()
        case .battery(let level): try emulator.setBattery(level)
        case .touch: try emulator.touch()
        case .status:
            let s = emulator.statistics
            ConsoleIO.printLine(
                "\(emulator.glasses.name) \(emulator.glasses.address): \(emulator.isConnected ? "connected" : "disconnected"); "
                    + "sound server \(emulator.soundServerRegistered ? "registered" : "not registered"); "
                    + "A2DP acquired \(s.mediaAcquisitions)x, voice link opened \(s.voiceAcquisitions)x; "
                    + "packets: media \(s.mediaPackets), mic \(s.voicePacketsToServer) (\(s.voicePacketsDropped) dropped: the server read late), speaker \(s.voicePacketsFromServer); "
                    + "battery \(emulator.battery)%\(emulator.batteryShown ? "" : " (not reported over a hands-free link)")")
        case .waitServer, .quit, .voice: break
        }
    }

    /// A checked script's commands, each after its wait.
    static func scripted(_ script: EmulatorScript) -> AsyncStream<Result<EmulatorCommand, EmulatorUsageError>> {
        AsyncStream { continuation in
            let task = Task {
                for step in script.steps {
                    if step.wait > .zero { try? await Task.sleep(for: step.wait) }
                    continuation.yield(.success(step.command))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Commands typed on stdin; a line that is no command is reported, and the next is read.
    static func standardInput() -> AsyncStream<Result<EmulatorCommand, EmulatorUsageError>> {
        let lines = ConsoleIO.lines()
        return AsyncStream { continuation in
            let task = Task {
                for await line in lines where !line.isEmpty {
                    continuation.yield(Result { () throws(EmulatorUsageError) in try EmulatorCommand(parsing: line) })
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
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
