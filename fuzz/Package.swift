// swift-tools-version:6.0
// libFuzzer targets for the file readers, the settings bodies and the settings YAML, kept out of the main package so its build is not
// instrumented. Built and run by `make fuzz` (scripts/run-fuzz).
import PackageDescription

let package = Package(
    name: "GlassesAudioFuzz",
    dependencies: [.package(name: "GlassesAudio", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzWAV", dependencies: ["FuzzDriver", .product(name: "AudioCore", package: "GlassesAudio")]),
        .executableTarget(name: "FuzzOggOpus", dependencies: ["FuzzDriver", .product(name: "AudioCore", package: "GlassesAudio")]),
        .executableTarget(name: "FuzzProfile", dependencies: ["FuzzDriver", .product(name: "DeviceProfiles", package: "GlassesAudio")]),
        .executableTarget(name: "FuzzSettings", dependencies: ["FuzzDriver", .product(name: "Store", package: "GlassesAudio")]),
        .executableTarget(name: "FuzzConfigYAML", dependencies: ["FuzzDriver", .product(name: "DeviceProfiles", package: "GlassesAudio")]),
    ]
)
