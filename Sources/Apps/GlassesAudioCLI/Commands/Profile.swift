import ArgumentParser
import AudioBackend
import AudioCore
import BackendSelection
import Foundation
import RouteService
import Routing

/// `glasses-audio profile <device> voice|media|off`: switch a device's Bluetooth profile.
struct Profile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Switch a device to voice (HFP), media (A2DP) or off, and wait until it has switched.")

    @OptionGroup var backendOptions: BackendOptions

    @OptionGroup var routeWait: RouteWaitOption

    @Flag(help: "One JSON object.")
    var json = false

    @Argument(help: "The device: its address, its sound-server card name (bluez_card.…), its name (or part of it), or 'auto' for the first connected one.")
    var device: String

    @Argument(help: "voice, media or off.")
    var profile: AudioProfile

    struct Result: Encodable {
        var device: String
        var from: String
        var to: String
        var seconds: Double
    }

    func run() async throws {
        // A person's choice stays: the routes end with the profile as set, nothing restored.
        let (target, elapsed) = try await BackendSession.withRoutes(
            backendOptions, quiet: json, configuration: RoutingConfiguration(readyTimeout: routeWait.timeout),
            ending: .keepingProfiles,
            startFailure: { CLIError("cannot follow the routes on \($1): \($0)") }
        ) { _, service in
            let devices = await service.devices
            guard let target = devices.first(where: { matches($0) }) else {
                let known = devices.map { "\($0.nameOrId) (\($0.identifier))" }.joined(separator: ", ")
                throw CLIError("no device matches '\(device)'; known: \(known.isEmpty ? "none" : known)")
            }
            guard target.availableProfiles.contains(profile) else {
                throw CLIError("\(target.nameOrId) offers no \(profile.rawValue) profile (it offers \(target.availableProfiles.map(\.rawValue).joined(separator: ", ")))")
            }
            let start = service.clock.now
            do {
                try await service.requestProfile(profile, on: target.identifier)
            } catch {
                throw CLIError("switching \(target.nameOrId) to \(profile.rawValue) failed: \(error)")
            }
            return (target, service.clock.now - start)
        }
        let result = Result(
            device: target.identifier.rawValue, from: target.activeProfile.rawValue, to: profile.rawValue,
            seconds: Double(elapsed / .milliseconds(1)) / 1000)
        if json { return try printJSON(result) }
        print(String(format: "%@ (%@): %@ -> %@ in %.2f s", target.nameOrId, result.device, result.from, result.to, result.seconds))
    }

    /// `auto` (the first linked device), an address, the sound server's card name
    /// (`bluez_card.C0_FF_EE_00_00_02`, as pactl shows it), or part of the device's name.
    private func matches(_ candidate: Device) -> Bool {
        if device == "auto" { return candidate.linkState == .connected }
        let address = candidate.identifier.rawValue
        let cardSuffix = address.replacingOccurrences(of: ":", with: "_")
        return address.caseInsensitiveCompare(device) == .orderedSame
            || device.caseInsensitiveCompare("bluez_card.\(cardSuffix)") == .orderedSame
            || candidate.name.localizedCaseInsensitiveContains(device)
    }
}

extension AudioProfile: ExpressibleByArgument {}
