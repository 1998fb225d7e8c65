internal import CPulse
import Foundation

/// What the server says of itself (`pa_server_info`) and which modules it runs, for `doctor`.
extension PulseContext {
    func serverInfo() async throws -> PulseServerInfo {
        let request = Collector<PulseServerInfo>()
        request.operation = "read the server's information"
        let answer = try await request.run(self) { context, userdata in
            pa_context_get_server_info(context, { _, info, userdata in
                let request = Unmanaged<Collector<PulseServerInfo>>.fromOpaque(userdata!).takeUnretainedValue()
                if let info = info?.pointee {
                    request.items.append(PulseServerInfo(
                        name: info.server_name.map { String(cString: $0) } ?? "",
                        version: info.server_version.map { String(cString: $0) } ?? "", modules: []))
                }
                request.finish(info == nil)
            }, userdata)
        }
        guard var info = answer.first else { throw PulseError("read the server's information", reason: "no answer") }
        let modules = Collector<PulseServerInfo.Module>()
        modules.operation = "list the server's modules"
        info.modules = try await modules.run(self) { context, userdata in
            pa_context_get_module_info_list(context, { _, module, eol, userdata in
                let request = Unmanaged<Collector<PulseServerInfo.Module>>.fromOpaque(userdata!).takeUnretainedValue()
                guard eol == 0, let module = module?.pointee else { return request.finish(eol < 0) }
                request.items.append(PulseServerInfo.Module(
                    name: String(cString: module.name), argument: module.argument.map { String(cString: $0) } ?? ""))
            }, userdata)
        }
        return info
    }
}
