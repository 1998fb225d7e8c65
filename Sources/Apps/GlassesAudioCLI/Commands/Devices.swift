import ArgumentParser
import AudioBackend
import BackendSelection
import Foundation
import Routing

/// `glasses-audio devices`: the Bluetooth devices and the sinks and sources of the backend.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List glasses/headsets and their sinks and sources.")

    @OptionGroup var backendOptions: BackendOptions

    @Flag(help: "One JSON object: {backend, devices, endpoints}.")
    var json = false

    struct Listing: Encodable {
        var backend: String
        var devices: [Device]
        var endpoints: [AudioEndpoint]
    }

    func run() async throws {
        let session = try await BackendSession.open(backendOptions, quiet: json)
        let listing = Listing(
            backend: session.backend.name, devices: try await session.backend.devices(),
            endpoints: try await session.backend.endpoints())
        try await session.closeAndReport()
        if json { return try printJSON(listing) }
        print("DEVICES (\(listing.devices.count))")
        for device in listing.devices {
            let profiles = device.availableProfiles.map(\.rawValue).joined(separator: "/")
            print("  \(device.identifier)  \(device.nameOrId)  [\(device.deviceType)]  link \(device.linkState.rawValue), profile \(device.activeProfile.rawValue) (offers \(profiles))\(device.battery.map { ", battery \($0)%" } ?? "")")
        }
        print("SINKS AND SOURCES (\(listing.endpoints.count))")
        for endpoint in listing.endpoints {
            let owner = endpoint.device.map { " device \($0)" } ?? ""
            print("  \(endpoint.direction.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(endpoint.name)  \(endpoint.sampleRate) Hz \(endpoint.channels) ch  \(endpoint.state.rawValue)\(owner)  \(endpoint.description)")
        }
    }
}
