import ArgumentParser
import AudioBackend
import Foundation
import Routing

/// `glasses-audio profile <device> voice|media|off`: switch a device's Bluetooth profile.
struct Profile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Switch a device to voice (HFP), media (A2DP) or off, and wait until it has switched.")

    @OptionGroup var backendOptions: BackendOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("How long to wait for the switch, in seconds (0.1...3600; default 10).", valueName: "seconds"),
            transform: DurationOption.timeout.transform)
    var timeout: Duration = .seconds(10)

    @Flag(help: "One JSON object.")
    var json = false

    @Argument(help: "The device: its address, its name (or part of it), or 'auto' for the first connected one.")
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
        let session = try await BackendSession.open(backendOptions, quiet: json)
        let events = await session.backend.events()
        let devices = try await session.backend.devices()
        guard let target = devices.first(where: { matches($0) }) else {
            try await session.close()
            let known = devices.map { "\($0.nameOrId) (\($0.identifier))" }.joined(separator: ", ")
            throw CLIError("no device matches '\(device)'; known: \(known.isEmpty ? "none" : known)")
        }
        guard target.availableProfiles.contains(profile) else {
            try await session.close()
            throw CLIError("\(target.nameOrId) offers no \(profile.rawValue) profile (it offers \(target.availableProfiles.map(\.rawValue).joined(separator: ", ")))")
        }
        let start = ContinuousClock.now
        if target.activeProfile != profile {
            do {
                try await session.backend.perform(.setProfile(target.identifier, profile))
                try await waitForSwitch(events, device: target.identifier)
            } catch {
                try? await session.close()
                throw CLIError("switching \(target.nameOrId) to \(profile.rawValue) failed: \(error)")
            }
        }
        let elapsed = ContinuousClock.now - start
        try await session.close()
        let result = Result(
            device: target.identifier.rawValue, from: target.activeProfile.rawValue, to: profile.rawValue,
            seconds: Double(elapsed.components.attoseconds / 1_000_000_000_000_000 + elapsed.components.seconds * 1000) / 1000)
        if json { return try printJSON(result) }
        print(String(format: "%@ (%@): %@ -> %@ in %.2f s", target.nameOrId, result.device, result.from, result.to, result.seconds))
    }

    private func matches(_ candidate: Device) -> Bool {
        if device == "auto" { return candidate.linkState == .connected }
        return candidate.identifier.rawValue.caseInsensitiveCompare(device) == .orderedSame
            || candidate.name.localizedCaseInsensitiveContains(device)
    }

    private func waitForSwitch(_ events: AsyncStream<RouteEvent>, device id: DeviceIdentifier) async throws {
        let wanted = profile
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    if case .profileChanged(id, wanted) = event { return }
                    if case .linkChanged(id, .disconnected) = event { throw StreamSessionError.deviceNotConnected(id) }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw StreamSessionError.timeout
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

extension AudioProfile: ExpressibleByArgument {}
