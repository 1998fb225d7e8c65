// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Optimised in debug builds too, for the voice stage's per-frame math (log-mel features, the
/// VAD's perceptron: `VectorMath.dot` at -Onone was 45 times slower than release and most of a
/// debug `glasses-audio listen`'s own CPU). Under the lab's emulation (scripts/bt-lab, TCG) a
/// debug build otherwise fell minutes behind a live voice link (docs/bluez.md). The neural wake
/// engine's modules too (TFLiteGraph's kernels, the openWakeWord front end, the command
/// classifier, the head trainers): the suites of OpenWakeWordTests and CommandClassifierTests
/// took 52.8 s in debug with them at -Onone, 26.2 s at -O. Tests still `@testable import` these
/// modules: SwiftPM's debug builds keep `-enable-testing`. (Not AudioCore, DeviceProfiles or
/// Store: fuzz/ builds them as a dependency package, where SwiftPM refuses unsafe flags.)
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The release daemon linked by lld with its relative relocations packed (`DT_RELR`, glibc ≥ 2.36):
/// the dynamic loader reads a 18 KB bitmap instead of 2.1 MB of `.rela.dyn` entries at every start,
/// pages that stayed resident. The listening daemon (Home Assistant backend) 67.3 -> 64.4 MB,
/// still a position-independent executable (docs/benchmarks.md, "The daemon").
let packedRelocations: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux], configuration: .release))
]

/// A system library reached through a `[system]` module map and a `shim.h`.
func shim(_ name: String, pkgConfig: String?, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

/// `Sources/` is grouped by layer, so the folder tree reads as the data flow: C bindings, the
/// core model, the backends that reach sound servers and BlueZ, the voice stage, the assistant and
/// its protocols, the apps, the tools. This table is the one place that says where a module sits.
let layers: [String: [String]] = [
    "C": [
        "CALSA", "CBLAS", "CBluetooth", "CDBus", "CEspeak", "CFFTW", "CFLAC", "CFlite", "CMalloc", "CPrctl", "COpus", "CPocketSphinx", "CPulse", "CSBC",
        "CSoxr", "CSpeexDSP", "CWebRTCAudioProcessing", "BlueALSAHCIShim",
    ],
    "Core": ["AudioCore", "Routing", "DeviceProfiles", "Store", "DBusKit", "BluetoothIDs", "UnixSockets"],
    "Backends": ["AudioBackend", "Simulator", "PulseBackend", "ALSABackend", "BluezModel", "BluezBackend", "BackendSelection", "RouteService"],
    "Voice": ["Voice", "Speech", "SpeechPlayback", "TFLiteGraph", "OpenWakeWord", "CommandClassifier", "WakeRuntime", "WakeEvaluation", "VoiceTraining"],
    "Assistant": ["Assistant", "LocalAssistant", "EchoCancellation", "AssistantService", "AssistantAssembly", "Wyoming", "WyomingServer", "AssistantSocket",
        "ESPHomeAPI", "ESPHomeServer", "RemoteAudio", "CompanionBLE",
    ],
    "Apps": ["Diagnostics", "GlassesAudioCLI", "GlassesEmulator", "Daemon", "glasses-audio", "glasses-audiod", "glasses-emulator",
        "glasses-wake-trainer",
    ],
    "Tools": ["voice-eval"],
]

let package = Package(
    name: "GlassesAudio",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "glasses-audio", targets: ["glasses-audio"]),
        .executable(name: "glasses-emulator", targets: ["glasses-emulator"]),
        .executable(name: "glasses-audiod", targets: ["glasses-audiod"]),
        .executable(name: "glasses-wake-trainer", targets: ["glasses-wake-trainer"]),
        .library(name: "AudioCore", targets: ["AudioCore"]),
        .library(name: "Routing", targets: ["Routing"]),
        .library(name: "DeviceProfiles", targets: ["DeviceProfiles"]),  // for fuzz/
        .library(name: "Store", targets: ["Store"]),  // for fuzz/ (the settings bodies)
        // Preloaded into a bluealsa on the emulator's bus (see Sources/C/BlueALSAHCIShim).
        .library(name: "BlueALSAHCIShim", type: .dynamic, targets: ["BlueALSAHCIShim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // ESPHome's Noise encryption: X25519, ChaCha20-Poly1305, SHA-256, HMAC.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // glasses-audiod (issue 11): HTTP API, store, metrics; the WebSocket API is the Wyoming part's.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // Home Assistant's TTS audio and announcements fetched from their URLs (ESPHome API).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // libpulse.pc adds -D_REENTRANT/-pthread, which SwiftPM refuses; its headers need no flags.
        shim("CPulse", pkgConfig: nil, apt: ["libpulse-dev"]),
        shim("CALSA", pkgConfig: "alsa", apt: ["libasound2-dev"]),
        shim("CBluetooth", pkgConfig: "bluez", apt: ["libbluetooth-dev"]),
        shim("COpus", pkgConfig: "opusfile", apt: ["libopus-dev", "libopusenc-dev", "libopusfile-dev"]),
        shim("CEspeak", pkgConfig: "espeak-ng", apt: ["libespeak-ng-dev"]),
        shim("CDBus", pkgConfig: "dbus-1", apt: ["libdbus-1-dev"]),
        shim("CSoxr", pkgConfig: "soxr", apt: ["libsoxr-dev"]),
        shim("CFFTW", pkgConfig: "fftw3f", apt: ["libfftw3-dev"]),
        shim("CSBC", pkgConfig: "sbc", apt: ["libsbc-dev"]),
        shim("CPocketSphinx", pkgConfig: "pocketsphinx", apt: ["libpocketsphinx-dev", "pocketsphinx-en-us"]),
        shim("CSpeexDSP", pkgConfig: "speexdsp", apt: ["libspeexdsp-dev"]),
        shim("CBLAS", pkgConfig: "openblas", apt: ["libopenblas-dev"]),
        shim("CMalloc", pkgConfig: nil, apt: ["libc6-dev"]),
        shim("CPrctl", pkgConfig: nil, apt: ["libc6-dev"]),
        shim("CFlite", pkgConfig: nil, apt: ["flite1-dev"]),
        shim("CFLAC", pkgConfig: "flac", apt: ["libflac-dev"]),
        // C++ underneath: a C header and a .cpp of a few lines (Debian's webrtc-audio-processing 0.3;
        // its .pc's -D flags are repeated here, as a system library target cannot compile C++).
        .target(
            name: "CWebRTCAudioProcessing",
            cxxSettings: [.unsafeFlags(["-I/usr/include/webrtc_audio_processing", "-DWEBRTC_POSIX", "-DWEBRTC_AUDIO_PROCESSING_ONLY_BUILD"])],
            linkerSettings: [.linkedLibrary("webrtc_audio_processing"), .linkedLibrary("stdc++")]),

        .target(name: "BlueALSAHCIShim"),
        .target(name: "AudioCore", dependencies: ["CSoxr", "COpus", "CFFTW"], swiftSettings: strict),
        .target(name: "Routing", swiftSettings: strict),
        .target(name: "Voice", dependencies: ["AudioCore"], swiftSettings: strict + optimisedInDebug),
        .target(name: "Speech", dependencies: ["AudioCore", "CEspeak"], swiftSettings: strict),
        .target(name: "SpeechPlayback", dependencies: ["AudioBackend", "AudioCore", "Speech", "RouteService", "BackendSelection"], swiftSettings: strict),
        .target(name: "Assistant", dependencies: ["Routing", "Voice", "AudioCore"], swiftSettings: strict),
        .target(name: "LocalAssistant", dependencies: ["Assistant", "AudioCore", "Voice", "CPocketSphinx", "CommandClassifier"], swiftSettings: strict),
        // The mic's echo of the reply taken out, through SpeexDSP's or webrtc-audio-processing's
        // canceller: the one module that links either library.
        .target(name: "EchoCancellation", dependencies: ["CSpeexDSP", "CWebRTCAudioProcessing"], swiftSettings: strict),
        .target(
            name: "AssistantService",
            dependencies: [
                "Assistant", "RouteService", "Routing", "Voice", "Speech", "SpeechPlayback", "AudioCore", "AudioBackend", "EchoCancellation",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        // The assistant put together once for `listen` and the daemon: backend, history, TTS,
        // the voice stage's wake engine and the cancellers.
        .target(
            name: "AssistantAssembly",
            dependencies: [
                "Assistant", "AssistantService", "EchoCancellation", "RouteService", "Speech", "Voice", "WakeRuntime",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // What the service runs to pick and build a wake engine (engine choice, head lookup, dtw
        // templates); the offline trainer below is linked only by the trainer and the tools.
        .target(name: "WakeRuntime", dependencies: ["Voice", "Speech", "AudioCore", "OpenWakeWord", "TFLiteGraph"], swiftSettings: strict + optimisedInDebug),
        // Wake engines measured on labelled corpora (`glasses-audio eval`, `voice-eval`); no training.
        .target(name: "WakeEvaluation", dependencies: ["WakeRuntime", "Voice", "AudioCore", "OpenWakeWord", "TFLiteGraph"], swiftSettings: strict),
        .target(name: "VoiceTraining", dependencies: ["WakeRuntime", "Voice", "Speech", "AudioCore", "OpenWakeWord", "TFLiteGraph", "CMalloc", "CFlite"], swiftSettings: strict + optimisedInDebug),
        .executableTarget(
            name: "glasses-wake-trainer",
            dependencies: ["VoiceTraining", "WakeRuntime", "OpenWakeWord", "Voice", "AudioCore", "CPrctl", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict),
        .executableTarget(name: "voice-eval", dependencies: ["VoiceTraining", "WakeRuntime", "WakeEvaluation", "Voice", "Speech", "AudioCore", "OpenWakeWord", "TFLiteGraph", "Assistant", "LocalAssistant", "CommandClassifier"], swiftSettings: strict),
        .target(
            name: "DeviceProfiles",
            dependencies: ["Routing", "AudioCore", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict),
        .target(
            name: "AudioBackend",
            dependencies: ["AudioCore", "Routing", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .target(
            name: "RouteService",
            dependencies: [
                "AudioBackend", "AudioCore", "Routing", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .target(name: "DBusKit", dependencies: ["CDBus"], swiftSettings: strict),
        .target(
            name: "GlassesEmulator",
            dependencies: ["DBusKit", "BluetoothIDs", "AudioCore", "DeviceProfiles", "CSBC", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .target(
            name: "Simulator",
            dependencies: ["AudioBackend", "AudioCore", "Routing", "DeviceProfiles"],
            swiftSettings: strict),
        .target(
            name: "PulseBackend",
            dependencies: ["AudioBackend", "AudioCore", "Routing", "UnixSockets", "CPulse"],
            swiftSettings: strict),
        .target(
            name: "ALSABackend",
            dependencies: ["AudioBackend", "AudioCore", "Routing", "CALSA", "DBusKit", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .target(
            name: "BackendSelection",
            dependencies: [
                "BluezBackend", "AudioBackend", "AudioCore", "Routing", "DeviceProfiles", "Simulator", "PulseBackend", "ALSABackend", "RouteService",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .target(
            name: "GlassesAudioCLI",
            dependencies: [
                "AudioCore", "Routing", "DeviceProfiles", "AudioBackend", "Simulator", "PulseBackend", "ALSABackend", "Voice", "Speech", "WakeRuntime", "WakeEvaluation", "RouteService",
                "BackendSelection", "SpeechPlayback", "Assistant", "AssistantService", "EchoCancellation", "AssistantAssembly", "LocalAssistant", "OpenWakeWord",
                "BluezBackend", "BluezModel", "Diagnostics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .executableTarget(name: "glasses-audio", dependencies: ["GlassesAudioCLI"], swiftSettings: strict),
        .executableTarget(
            name: "glasses-emulator",
            dependencies: [
                "GlassesEmulator", "AudioCore", "DeviceProfiles", "UnixSockets",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .executableTarget(name: "AudioBench", dependencies: ["AudioCore"], path: "bench/AudioBench", swiftSettings: strict),
        .executableTarget(
            name: "RouteBench",
            dependencies: [
                "RouteService", "Simulator", "GlassesEmulator", "PulseBackend", "AudioBackend", "AudioCore", "Routing", "DeviceProfiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/RouteBench", swiftSettings: strict),

        .target(name: "TestKit", dependencies: ["AudioCore"], path: "Tests/TestKit", swiftSettings: strict),
        .testTarget(name: "AudioCoreTests", dependencies: ["AudioCore", "TestKit"], swiftSettings: strict),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "TestKit"], swiftSettings: strict),
        .testTarget(name: "AssistantTests", dependencies: ["Assistant", "AudioCore", "Routing", "Voice", "TestKit"], swiftSettings: strict),
        .testTarget(
            name: "AssistantServiceTests",
            dependencies: [
                "AssistantService", "Assistant", "AudioBackend", "AudioCore", "DeviceProfiles", "EchoCancellation", "RouteService", "Routing",
                "Simulator", "Speech", "Voice", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), "TestKit",
            ],
            swiftSettings: strict),
        .testTarget(name: "LocalAssistantTests", dependencies: ["LocalAssistant", "CommandClassifier", "Assistant", "AudioCore", "Speech", "DeviceProfiles", "TestKit"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "SimulatorTests",
            dependencies: ["Simulator", "AudioBackend", "DeviceProfiles", "AudioCore", "Routing", "TestKit"],
            swiftSettings: strict),
        .testTarget(name: "VoiceTests", dependencies: ["Voice", "Speech", "VoiceTraining", "WakeRuntime", "AudioCore", "TestKit"], swiftSettings: strict),
        .testTarget(
            name: "RouteServiceTests",
            dependencies: [
                "RouteService", "Simulator", "PulseBackend", "ALSABackend", "AudioBackend", "AudioCore", "Routing", "DeviceProfiles", "TestKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PulseBackendTests",
            dependencies: ["PulseBackend", "AudioBackend", "AudioCore", "Routing", "TestKit"],
            swiftSettings: strict),
        .testTarget(
            name: "ALSABackendTests", dependencies: ["ALSABackend", "AudioBackend", "AudioCore", "Routing", "TestKit"],
            swiftSettings: strict),
        .testTarget(
            name: "BlueALSATests",
            dependencies: ["ALSABackend", "GlassesEmulator", "Voice", "AudioBackend", "AudioCore", "Routing", "TestKit",
                .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit", "TestKit"], swiftSettings: strict),
        .testTarget(
            name: "GlassesEmulatorTests",
            dependencies: [
                "GlassesEmulator", "BluezBackend", "BluezModel", "PulseBackend", "RouteService", "Assistant", "AssistantService", "LocalAssistant", "CommandClassifier", "Speech", "Voice", "OpenWakeWord", "VoiceTraining", "WakeRuntime", "Simulator", "AudioBackend", "AudioCore", "Routing", "DeviceProfiles", "TestKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "CLITests", dependencies: ["TestKit", "AudioCore", "Speech"], swiftSettings: strict),

        // Neural wake word: a `.tflite` reader with its own kernels, and openWakeWord on it.
        .target(name: "TFLiteGraph", dependencies: ["CBLAS", "AudioCore"], swiftSettings: strict + optimisedInDebug),
        .target(name: "OpenWakeWord", dependencies: ["TFLiteGraph", "Voice"], swiftSettings: strict + optimisedInDebug),
        // The local assistant's command classifier on openWakeWord's features (models/commands).
        .target(name: "CommandClassifier", dependencies: ["OpenWakeWord", "TFLiteGraph", "AudioCore"], swiftSettings: strict + optimisedInDebug),
        .testTarget(name: "CommandClassifierTests", dependencies: ["CommandClassifier", "OpenWakeWord", "TestKit"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "TFLiteGraphTests", dependencies: ["TFLiteGraph", "OpenWakeWord", "TestKit"], swiftSettings: strict),
        .testTarget(name: "OpenWakeWordTests", dependencies: ["OpenWakeWord", "TFLiteGraph", "Voice", "VoiceTraining", "WakeRuntime", "Speech", "AudioCore", "TestKit"], exclude: ["Fixtures"], swiftSettings: strict),

        // BlueZ first-hand (issue 10): the org.bluez names both sides share, the pure object
        // model, and the D-Bus client that feeds it.
        .target(name: "BluetoothIDs", swiftSettings: strict),
        .target(name: "UnixSockets", swiftSettings: strict),
        .target(name: "BluezModel", dependencies: ["BluetoothIDs", "Routing"], swiftSettings: strict),
        .target(
            name: "BluezBackend",
            dependencies: ["BluezModel", "BluetoothIDs", "DBusKit", "AudioBackend", "AudioCore", "Routing"],
            swiftSettings: strict),
        .testTarget(
            name: "BluezBackendTests",
            dependencies: ["BluezBackend", "BluezModel", "BluetoothIDs", "GlassesEmulator", "DBusKit", "Routing", "TestKit",
                .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .target(
            name: "Diagnostics",
            dependencies: ["BluezBackend", "BluezModel", "PulseBackend", "ALSABackend", "BackendSelection", "AudioBackend", "Routing", "CBluetooth"],
            swiftSettings: strict),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "BluezModel", "PulseBackend", "ALSABackend", "Routing", "TestKit"], swiftSettings: strict),
        .executableTarget(
            name: "ALSABench",
            dependencies: [
                "ALSABackend", "PulseBackend", "GlassesEmulator", "RouteService", "Voice", "AudioBackend", "AudioCore", "Routing",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/ALSABench", swiftSettings: strict),
        .executableTarget(
            name: "FoldBench",
            dependencies: [
                "BluezBackend", "RouteService", "GlassesEmulator", "PulseBackend", "AudioBackend", "Routing", "DeviceProfiles", "AudioCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/FoldBench", swiftSettings: strict),
        .executableTarget(
            name: "RoundTripBench",
            dependencies: [
                "Assistant", "AssistantService", "EchoCancellation", "LocalAssistant", "Speech", "Voice", "VoiceTraining", "WakeRuntime", "GlassesEmulator", "PulseBackend",
                "RouteService", "Routing", "AudioBackend", "AudioCore", "DeviceProfiles", .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/RoundTripBench", swiftSettings: strict),
        .testTarget(name: "BluezModelTests", dependencies: ["BluezModel", "BluetoothIDs", "Routing", "TestKit"], swiftSettings: strict),
    
        // Wyoming (issue 11): the pure codec and events, the TCP server (satellite for Home
        // Assistant and wake-word service), and the WebSocket backend for custom assistants.
        .target(name: "Wyoming", swiftSettings: strict),
        .target(
            name: "WyomingServer",
            dependencies: [
                "Wyoming", "Assistant", "Voice", "AudioCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .target(
            name: "AssistantSocket",
            dependencies: [
                "Assistant", "AudioCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(name: "WyomingTests", dependencies: ["Wyoming", "TestKit"], swiftSettings: strict),

        // ESPHome's native API (Home Assistant's ESPHome integration): the generated messages
        // (scripts/generate-esphome-api) and the pure framing.
        .target(
            name: "ESPHomeAPI",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf"), .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),
        .testTarget(name: "ESPHomeAPITests", dependencies: ["ESPHomeAPI", "TestKit"], swiftSettings: strict),
        // Audio fetched from a URL and decoded (WAV, FLAC through libFLAC): Home Assistant's TTS
        // and announcements.
        .target(
            name: "RemoteAudio",
            dependencies: [
                "AudioCore", "CFLAC",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(name: "RemoteAudioTests", dependencies: ["RemoteAudio", "AudioCore", "TestKit"], swiftSettings: strict),
        .target(
            name: "ESPHomeServer",
            dependencies: [
                "ESPHomeAPI", "Assistant", "AudioCore", "RemoteAudio",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "WyomingBench",
            dependencies: [
                "WyomingServer", "Wyoming", "Voice", "VoiceTraining", "WakeRuntime", "OpenWakeWord", "AudioCore", "CMalloc",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/WyomingBench", swiftSettings: strict),
        .testTarget(
            name: "WyomingServerTests",
            dependencies: ["WyomingServer", "Wyoming", "Assistant", "Voice", "VoiceTraining", "WakeRuntime", "AudioCore", "TestKit",
                .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        .testTarget(
            name: "AssistantSocketTests",
            dependencies: ["AssistantSocket", "Assistant", "AudioCore", "TestKit",
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),

        // Seed 001's companion app over Bluetooth LE (issue 27): the GATT table, the pairing
        // window (pure), and the application and advertisement registered with BlueZ.
        .target(
            name: "CompanionBLE",
            dependencies: [
                "Store", "DBusKit", "BluetoothIDs",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .testTarget(name: "CompanionBLETests", dependencies: ["CompanionBLE", "DBusKit", "Store", "TestKit"], swiftSettings: strict),

        // glasses-audiod (issue 11): the store, the daemon's library (configuration, services,
        // HTTP API, events, systemd) and the executable that only parses, builds and runs.
        .target(name: "Store", dependencies: [.product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strict),
        .target(
            name: "Daemon",
            dependencies: [
                "Store", "BackendSelection", "DeviceProfiles", "RouteService", "AssistantService", "AssistantAssembly", "Assistant", "LocalAssistant", "Speech", "Voice",
                "WakeRuntime", "OpenWakeWord", "AudioBackend", "AudioCore", "Routing", "Simulator",
                "Wyoming", "WyomingServer", "AssistantSocket", "ESPHomeAPI", "ESPHomeServer", "DBusKit", "UnixSockets", "CompanionBLE",
                "SpeechPlayback", "BluezBackend", "BluezModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "glasses-audiod",
            dependencies: [
                "Daemon", "CMalloc", .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict, linkerSettings: packedRelocations),
        .testTarget(name: "StoreTests", dependencies: ["Store", "TestKit"], swiftSettings: strict),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "Daemon", "Assistant", "AssistantAssembly", "WakeRuntime", "Routing", "DeviceProfiles", "Store", "TestKit", "AudioCore", "AudioBackend",
                "CompanionBLE", "GlassesEmulator", "DBusKit", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
    ]
)

for (layer, modules) in layers {
    for module in modules {
        guard let target = package.targets.first(where: { $0.name == module }) else { fatalError("layers names \(module), which is no target") }
        target.path = "Sources/\(layer)/\(module)"
    }
}
