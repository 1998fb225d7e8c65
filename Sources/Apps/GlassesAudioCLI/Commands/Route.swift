import ArgumentParser
import AudioBackend
import BackendSelection
import DeviceProfiles
import Foundation
import Routing

/// `glasses-audio route`: where audio goes now.
struct Route: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the current routes: devices, their profiles, and their sinks and sources.")

    @OptionGroup var backendOptions: BackendOptions

    @Flag(help: "One JSON object.")
    var json = false

    struct DeviceRoute: Encodable {
        var device: Device
        var knownModel: String?
        var voiceCodecs: [String]?
        var mediaCodecs: [String]?
        var quirks: [String]?
        var sinks: [String]
        var sources: [String]
    }

    struct Listing: Encodable {
        var backend: String
        var routes: [DeviceRoute]
        var otherEndpoints: [AudioEndpoint]
    }

    func run() async throws {
        let session = try await BackendSession.open(backendOptions, quiet: json)
        let devices = try await session.backend.devices()
        let endpoints = try await session.backend.endpoints()
        try await session.closeAndReport()
        let library = ProfileLibrary.load(directory: backendOptions.profiles ?? ProfileLibrary.defaultDirectory())
        let routes = devices.map { device in
            let model = library.profile(id: device.deviceType)
                ?? library.profile(matchingName: device.name, address: device.identifier.rawValue)
            let mine = endpoints.filter { $0.device == device.identifier }
            return DeviceRoute(
                device: device, knownModel: model?.name, voiceCodecs: model?.voice.codecs, mediaCodecs: model?.media?.codecs,
                quirks: model?.quirks.notes, sinks: mine.filter { $0.direction == .sink }.map(\.name),
                sources: mine.filter { $0.direction == .source && !$0.isMonitor }.map(\.name))
        }
        let others = endpoints.filter { $0.device == nil }
        let listing = Listing(backend: session.backend.name, routes: routes, otherEndpoints: others)
        if json { return try printJSON(listing) }
        if routes.isEmpty { print("no Bluetooth glasses or headsets") }
        for route in routes {
            let device = route.device
            print("\(device.nameOrId) (\(device.identifier)): \(device.linkState.rawValue), profile \(device.activeProfile.rawValue)")
            print("  model:   \(route.knownModel ?? "unknown (generic HFP/A2DP handling)")")
            if let battery = device.battery { print("  battery: \(battery)%") }
            if let voice = route.voiceCodecs { print("  voice:   HFP, codecs \(voice.joined(separator: " > "))") }
            if let media = route.mediaCodecs { print("  media:   A2DP, codecs \(media.joined(separator: " > "))") }
            print("  speaker: \(route.sinks.isEmpty ? "none" : route.sinks.joined(separator: ", "))")
            print("  mic:     \(route.sources.isEmpty ? "none (\(device.activeProfile == .media ? "A2DP has no mic; switch to voice" : "no voice link"))" : route.sources.joined(separator: ", "))")
            for quirk in route.quirks ?? [] { print("  quirk:   \(quirk)") }
        }
        if !others.isEmpty {
            print("other sinks and sources:")
            for endpoint in others where !endpoint.isMonitor {
                print("  \(endpoint.direction.rawValue) \(endpoint.name) (\(endpoint.description))")
            }
        }
    }
}
