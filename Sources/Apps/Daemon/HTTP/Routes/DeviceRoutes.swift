import Foundation
import Hummingbird
import RouteService
import Routing

/// `GET /api/devices`, `GET /api/route`, `PUT /api/route/profile`.
struct DeviceRoutes {
    let context: DaemonContext

    struct DeviceView: Encodable {
        var id: String
        var name: String
        var type: String
        var link: String
        var profile: String
        var profiles: [String]
        var battery: Int?
        var active: Bool
    }

    struct EndpointView: Encodable {
        var name: String
        var direction: String
        var device: String?
    }

    struct RouteView: Encodable {
        var device: DeviceView?
        var sink: EndpointView?
        var source: EndpointView?
        var policy: String
    }

    struct ProfileBody: Decodable {
        var profile: String
        var device: String?
    }

    func add(to router: Router<DaemonRequestContext>) {
        router.get("/api/devices") { _, _ in
            let active = await context.routes.activeDevice
            return JSONResponse.make(await context.routes.devices.map { view($0, active: active) })
        }
        router.get("/api/route") { _, _ in
            let active = await context.routes.activeDevice
            let device = await context.routes.devices.first { $0.identifier == active }
            let endpoints = await context.routes.endpoints.filter { !$0.isMonitor && $0.device != nil && $0.device == active }
            let sink = endpoints.first { $0.direction == .sink }
            let source = endpoints.first { $0.direction == .source }
            return JSONResponse.make(
                RouteView(
                    device: device.map { view($0, active: active) }, sink: sink.map(endpoint), source: source.map(endpoint),
                    policy: context.configuration.policy.rawValue))
        }
        router.put("/api/route/profile") { request, _ in
            let body = try await JSONBody.decode(
                ProfileBody.self, from: request, limit: context.configuration.bodyLimit, example: #"{"profile": "voice"}"#)
            let allowed = AudioProfile.allCases.map(\.rawValue)
            guard let profile = AudioProfile(rawValue: body.profile) else {
                throw APIError.badRequest("'profile' must be one of \(allowed.joined(separator: ", ")); got '\(body.profile.prefix(40))'")
            }
            let devices = await context.routes.devices
            let active = await context.routes.activeDevice
            let target: Device
            if let name = body.device {
                guard let found = devices.first(where: { "\($0.identifier)" == name }) else {
                    let known = devices.map { "\($0.identifier)" }
                    throw APIError(.notFound, "no device '\(name.prefix(60))'; known: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
                }
                target = found
            } else {
                guard let found = devices.first(where: { $0.identifier == active }) else {
                    throw APIError(.conflict, "no glasses are connected; give 'device' or connect them")
                }
                target = found
            }
            guard target.availableProfiles.contains(profile) else {
                throw APIError.badRequest(
                    "'\(profile.rawValue)' is not offered by \(target.name); it offers \(target.availableProfiles.map(\.rawValue).joined(separator: ", "))")
            }
            do {
                try await context.routes.requestProfile(profile, on: target.identifier)
            } catch {
                throw APIError(.conflict, "the profile could not be set: \(error)")
            }
            return JSONResponse.make(["success": JSONValue.bool(true), "profile": .string(profile.rawValue), "device": .string("\(target.identifier)")])
        }
    }

    func view(_ device: Device, active: DeviceIdentifier?) -> DeviceView {
        DeviceView(
            id: "\(device.identifier)", name: device.name, type: device.deviceType, link: device.linkState.rawValue,
            profile: device.activeProfile.rawValue, profiles: device.availableProfiles.map(\.rawValue), battery: device.battery,
            active: device.identifier == active)
    }

    func endpoint(_ endpoint: AudioEndpoint) -> EndpointView {
        EndpointView(name: endpoint.name, direction: endpoint.direction.rawValue, device: endpoint.device.map { "\($0)" })
    }
}
