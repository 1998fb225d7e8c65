internal import CPulse
import Foundation
import Synchronization

/// A sink or source as libpulse describes it, copied out of the callback.
struct PulseEndpointInfo: Sendable {
    var index: UInt32
    var name: String
    var description: String
    var rate: Int
    var channels: Int
    var properties: [String: String]
    var running: Bool
    var suspended: Bool
    /// For a source: the sink it monitors, when it is a monitor.
    var isMonitor: Bool
    var card: UInt32
}

/// A card as libpulse describes it.
struct PulseCardInfo: Sendable {
    var index: UInt32
    var name: String
    var properties: [String: String]
    var profiles: [String]
    var activeProfile: String?
}

/// One libpulse context on its own threaded mainloop. Every request is answered through a
/// continuation resumed from the mainloop's callback, so no Swift task ever blocks waiting.
final class PulseContext: @unchecked Sendable {
    let mainloop: OpaquePointer
    let context: OpaquePointer
    let server: String?

    init(server: String?, name: String = "glasses-audio") throws(PulseError) {
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw PulseError("create mainloop", reason: "out of memory")
        }
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), name) else {
            pa_threaded_mainloop_free(mainloop)
            throw PulseError("create context", reason: "out of memory")
        }
        self.mainloop = mainloop
        self.context = context
        self.server = server
        pa_threaded_mainloop_start(mainloop)
    }

    /// The retained ``NoticeBox`` of ``watch(onChange:)``, released with the context.
    private var watcher: UnsafeMutableRawPointer?

    deinit {
        pa_threaded_mainloop_lock(mainloop)
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        if let watcher { Unmanaged<NoticeBox>.fromOpaque(watcher).release() }
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    /// Runs `body` with the mainloop locked (libpulse calls must not race its thread).
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// The last error libpulse recorded on this context.
    func lastError(_ operation: String) -> PulseError {
        PulseError.check(operation, code: pa_context_errno(context))
    }

    // MARK: - Connecting

    /// The server a connection goes to, for messages: the one given, else `$PULSE_SERVER`,
    /// else the user's default.
    var serverDescription: String {
        if let server { return "PulseAudio server '\(server)'" }
        if let variable = ProcessInfo.processInfo.environment["PULSE_SERVER"], !variable.isEmpty {
            return "PulseAudio server '\(variable)' (from PULSE_SERVER)"
        }
        return "the user's PulseAudio server (no PULSE_SERVER set)"
    }

    /// Connects without autospawning a server; throws when none answers.
    func connect() async throws {
        do {
            try await connect(OneShot<Void>())
        } catch var error as PulseError {
            error.operation = "connect to \(serverDescription)"
            throw error
        }
    }

    private func connect(_ waiter: OneShot<Void>) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            waiter.hold(continuation)
            locked {
                pa_context_set_state_callback(context, { context, userdata in
                    let waiter = Unmanaged<OneShot<Void>>.fromOpaque(userdata!).takeUnretainedValue()
                    switch pa_context_get_state(context) {
                    case PA_CONTEXT_READY:
                        waiter.resume(with: .success(()))
                    case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
                        waiter.resume(with: .failure(PulseError.check("connect", code: pa_context_errno(context))))
                    default:
                        break
                    }
                }, Unmanaged.passUnretained(waiter).toOpaque())
                if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
                    waiter.resume(with: .failure(lastError("connect")))
                }
            }
        }
        withExtendedLifetime(waiter) {}
        locked { pa_context_set_state_callback(context, nil, nil) }
    }

    // MARK: - Watching

    /// Reports every change on the server (`pa_context_subscribe` with all facilities) and the
    /// context failing (the server went away). `onChange` runs on the mainloop thread: it
    /// must only hand the news on, never call back into libpulse and wait.
    func watch(onChange: @escaping @Sendable (PulseNotice) -> Void) {
        let box = Unmanaged.passRetained(NoticeBox(onChange)).toOpaque()
        locked {
            watcher = box
            pa_context_set_subscribe_callback(context, { _, event, _, userdata in
                let box = Unmanaged<NoticeBox>.fromOpaque(userdata!).takeUnretainedValue()
                let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
                box.deliver(.changed(facility: facility))
            }, box)
            pa_context_set_state_callback(context, { context, userdata in
                let box = Unmanaged<NoticeBox>.fromOpaque(userdata!).takeUnretainedValue()
                switch pa_context_get_state(context) {
                case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: box.deliver(.serverLost)
                default: break
                }
            }, box)
            let mask = pa_subscription_mask_t(rawValue: PA_SUBSCRIPTION_MASK_ALL.rawValue)
            if let operation = pa_context_subscribe(context, mask, nil, nil) { pa_operation_unref(operation) }
        }
    }

    // MARK: - Introspection

    func sinks() async throws -> [PulseEndpointInfo] {
        let request = Collector<PulseEndpointInfo>()
        return try await request.run(self) { context, userdata in
            pa_context_get_sink_info_list(context, { _, info, eol, userdata in
                let request = Unmanaged<Collector<PulseEndpointInfo>>.fromOpaque(userdata!).takeUnretainedValue()
                guard eol == 0, let info = info?.pointee else { return request.finish(eol < 0) }
                request.items.append(PulseEndpointInfo(
                    index: info.index, name: String(cString: info.name),
                    description: info.description.map { String(cString: $0) } ?? "",
                    rate: Int(info.sample_spec.rate), channels: Int(info.sample_spec.channels),
                    properties: PulseProperties.dictionary(info.proplist),
                    running: info.state == PA_SINK_RUNNING, suspended: info.state == PA_SINK_SUSPENDED,
                    isMonitor: false, card: info.card))
            }, userdata)
        }
    }

    func sources() async throws -> [PulseEndpointInfo] {
        let request = Collector<PulseEndpointInfo>()
        return try await request.run(self) { context, userdata in
            pa_context_get_source_info_list(context, { _, info, eol, userdata in
                let request = Unmanaged<Collector<PulseEndpointInfo>>.fromOpaque(userdata!).takeUnretainedValue()
                guard eol == 0, let info = info?.pointee else { return request.finish(eol < 0) }
                request.items.append(PulseEndpointInfo(
                    index: info.index, name: String(cString: info.name),
                    description: info.description.map { String(cString: $0) } ?? "",
                    rate: Int(info.sample_spec.rate), channels: Int(info.sample_spec.channels),
                    properties: PulseProperties.dictionary(info.proplist),
                    running: info.state == PA_SOURCE_RUNNING, suspended: info.state == PA_SOURCE_SUSPENDED,
                    isMonitor: info.monitor_of_sink != UInt32.max, card: info.card))
            }, userdata)
        }
    }

    func cards() async throws -> [PulseCardInfo] {
        let request = Collector<PulseCardInfo>()
        return try await request.run(self) { context, userdata in
            pa_context_get_card_info_list(context, { _, info, eol, userdata in
                let request = Unmanaged<Collector<PulseCardInfo>>.fromOpaque(userdata!).takeUnretainedValue()
                guard eol == 0, let info = info?.pointee else { return request.finish(eol < 0) }
                var profiles: [String] = []
                if let list = info.profiles2 {
                    for index in 0..<Int(info.n_profiles) {
                        if let profile = list[index]?.pointee { profiles.append(String(cString: profile.name)) }
                    }
                }
                request.items.append(PulseCardInfo(
                    index: info.index, name: String(cString: info.name),
                    properties: PulseProperties.dictionary(info.proplist), profiles: profiles,
                    activeProfile: info.active_profile2.map { String(cString: $0.pointee.name) }))
            }, userdata)
        }
    }

    /// The server's default sink and source names (`nil` for none, also for PipeWire's placeholders).
    func defaults() async throws -> (sink: String?, source: String?) {
        let request = Collector<(String?, String?)>()
        let answer = try await request.run(self) { context, userdata in
            pa_context_get_server_info(context, { _, info, userdata in
                let request = Unmanaged<Collector<(String?, String?)>>.fromOpaque(userdata!).takeUnretainedValue()
                if let info = info?.pointee {
                    request.items.append((
                        PulseNaming.defaultEndpointName(info.default_sink_name.map { String(cString: $0) }),
                        PulseNaming.defaultEndpointName(info.default_source_name.map { String(cString: $0) })))
                }
                request.finish(info == nil)
            }, userdata)
        }
        return answer.first ?? (nil, nil)
    }

    /// What the server says of itself (`pa_server_info`) and which modules it runs, for `doctor`.
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

    // MARK: - Changes

    func setCardProfile(card: String, profile: String) async throws {
        try await runSuccessOperation("set card \(card) to profile \(profile)") { context, callback, userdata in
            pa_context_set_card_profile_by_name(context, card, profile, callback, userdata)
        }
    }

    func setDefaultSink(_ name: String) async throws {
        try await runSuccessOperation("set default sink \(name)") { context, callback, userdata in
            pa_context_set_default_sink(context, name, callback, userdata)
        }
    }

    func setDefaultSource(_ name: String) async throws {
        try await runSuccessOperation("set default source \(name)") { context, callback, userdata in
            pa_context_set_default_source(context, name, callback, userdata)
        }
    }

    private func runSuccessOperation(
        _ what: String,
        _ start: (OpaquePointer, pa_context_success_cb_t, UnsafeMutableRawPointer) -> OpaquePointer?
    ) async throws {
        let request = Collector<Bool>()
        request.operation = what
        let results = try await request.run(self) { context, userdata in
            start(context, { _, success, userdata in
                let request = Unmanaged<Collector<Bool>>.fromOpaque(userdata!).takeUnretainedValue()
                request.items.append(success != 0)
                request.finish(success == 0)
            }, userdata)
        }
        if results.first != true { throw lastError(what) }
    }
}

/// Gathers the items of one libpulse list request and hands them to the awaiting task.
/// Retained for the duration of the request; the callbacks run on the mainloop thread.
final class Collector<Item>: @unchecked Sendable {
    var items: [Item] = []
    var operation = "query"
    private var continuation: CheckedContinuation<[Item], any Error>?
    private weak var owner: PulseContext?

    func run(
        _ owner: PulseContext, _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
    ) async throws -> [Item] {
        self.owner = owner
        let userdata = Unmanaged.passRetained(self).toOpaque()
        return try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            owner.locked {
                if let operation = start(owner.context, userdata) {
                    pa_operation_unref(operation)
                } else {
                    finish(true)
                }
            }
        }
    }

    /// Called once, from the mainloop thread (or the start, under the lock).
    func finish(_ failed: Bool) {
        guard let continuation else { return }
        self.continuation = nil
        if failed && items.isEmpty, let owner {
            continuation.resume(throwing: owner.lastError(operation))
        } else {
            continuation.resume(returning: items)
        }
        Unmanaged.passUnretained(self).release()
    }
}

/// A continuation that may be resumed from several callback paths but only takes the first.
final class OneShot<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)

    /// The continuation to resume; given before the request that resumes it is made.
    func hold(_ waiting: CheckedContinuation<Value, any Error>) {
        continuation.withLock { $0 = waiting }
    }

    func resume(with result: sending Result<Value, any Error>) {
        guard let waiting = continuation.withLock({ $0.take() }) else { return }
        waiting.resume(with: result)
    }
}

/// What ``PulseContext/watch(onChange:)`` reports.
enum PulseNotice: Sendable {
    /// Something of this facility (`PA_SUBSCRIPTION_EVENT_SINK`…) was added, changed or removed.
    case changed(facility: UInt32)
    case serverLost
}

/// Carries the watch callback through libpulse's `void *userdata`.
final class NoticeBox: Sendable {
    let deliver: @Sendable (PulseNotice) -> Void
    init(_ deliver: @escaping @Sendable (PulseNotice) -> Void) { self.deliver = deliver }
}

/// Property lists copied into Swift dictionaries.
enum PulseProperties {
    static func dictionary(_ list: OpaquePointer?) -> [String: String] {
        guard let list else { return [:] }
        var state: UnsafeMutableRawPointer?
        var out: [String: String] = [:]
        while let key = pa_proplist_iterate(list, &state) {
            if let value = pa_proplist_gets(list, key) { out[String(cString: key)] = String(cString: value) }
        }
        return out
    }
}

extension PulseError {
    /// The one place libpulse error codes become Swift errors.
    static func check(_ operation: String, code: Int32) -> PulseError {
        PulseError(operation, reason: String(cString: pa_strerror(code)))
    }
}
