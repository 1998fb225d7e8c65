internal import CPulse
import AudioCore
import Foundation
import Routing

// The one file in PulseBackend that reaches libpulse (CPulse): the context (connecting,
// watching, introspection, changes) and the streams' calls (`PulseStreamBindings`); the rest
// of the module holds libpulse's handles as opaque pointers and calls these.

/// One libpulse context on its own threaded mainloop. Every request is answered through a
/// continuation resumed from the mainloop's callback, so no Swift task ever blocks waiting.
///
/// Unchecked `Sendable`: libpulse's threaded mainloop serialises every use under its lock; `watcher` is set under it.
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

    /// The last error libpulse recorded on this context, in words.
    var lastErrorReason: String { String(cString: pa_strerror(pa_context_errno(context))) }

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
        try await Collector<PulseEndpointInfo>().run(self) { context, userdata in
            pa_context_get_sink_info_list(context, { _, info, eol, userdata in Collector.receive(userdata, info, eol, PulseEndpointInfo.init(sink:)) }, userdata)
        }
    }

    func sources() async throws -> [PulseEndpointInfo] {
        try await Collector<PulseEndpointInfo>().run(self) { context, userdata in
            pa_context_get_source_info_list(context, { _, info, eol, userdata in Collector.receive(userdata, info, eol, PulseEndpointInfo.init(source:)) }, userdata)
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
///
/// Unchecked `Sendable`: its fields are touched only under the threaded mainloop's lock (the start and the callbacks).
final class Collector<Item>: @unchecked Sendable {
    var items: [Item] = []
    var operation = "query"
    private var continuation: CheckedContinuation<[Item], any Error>?
    private weak var owner: PulseContext?

    /// One reply of a list query, in libpulse's callback: `info` mapped by `make` and kept, or
    /// the end of the list (an error when `eol` is negative).
    static func receive<Info>(_ userdata: UnsafeMutableRawPointer?, _ info: UnsafePointer<Info>?, _ eol: Int32, _ make: (Info) -> Item) {
        let request = Unmanaged<Collector<Item>>.fromOpaque(userdata!).takeUnretainedValue()
        guard eol == 0, let info = info?.pointee else { return request.finish(eol < 0) }
        request.items.append(make(info))
    }

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

/// libpulse's stream calls (`pa_stream`, asynchronous API) as ``PulsePlaybackStream`` and
/// ``PulseRecordStream`` use them; every call with the mainloop locked. The callbacks reach
/// the owner (passed retained by the owner) on the mainloop thread, with the lock held.
enum PulseStreamBindings {
    /// Where a stream stands (`pa_stream_state_t`).
    enum State: Equatable {
        case creating, ready
        /// `PA_STREAM_FAILED` or `PA_STREAM_TERMINATED`.
        case ended
        case other
    }

    /// A new stream of 32-bit float samples in `format` on `context`.
    static func make(on context: PulseContext, name: String, format: PCMFormat) -> OpaquePointer? {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
        return pa_stream_new(context.context, name, &spec, nil)
    }

    /// `playback`'s `wake()` when the server wants more, `stateChanged()` when the state moves.
    static func follow(_ stream: OpaquePointer, by playback: UnsafeMutableRawPointer, as _: PulsePlaybackStream.Type) {
        pa_stream_set_write_callback(stream, { _, _, userdata in
            Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue().wake()
        }, playback)
        pa_stream_set_state_callback(stream, { _, userdata in
            Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue().stateChanged()
        }, playback)
    }

    /// `record`'s `readAvailable()` when data came, `stateChanged()` when the state moves.
    static func follow(_ stream: OpaquePointer, by record: UnsafeMutableRawPointer, as _: PulseRecordStream.Type) {
        pa_stream_set_read_callback(stream, { _, _, userdata in
            Unmanaged<PulseRecordStream>.fromOpaque(userdata!).takeUnretainedValue().readAvailable()
        }, record)
        pa_stream_set_state_callback(stream, { _, userdata in
            Unmanaged<PulseRecordStream>.fromOpaque(userdata!).takeUnretainedValue().stateChanged()
        }, record)
    }

    /// Connects `stream` to `sink` (the default when `nil`), never moved to another sink
    /// (`PA_STREAM_DONT_MOVE`), the server holding about `latency`; false when refused.
    static func connectPlayback(_ stream: OpaquePointer, to sink: String?, format: PCMFormat, latency: Duration) -> Bool {
        let bytesPerMillisecond = format.sampleRate * format.bytesPerFrame / 1000
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(Int(latency / .milliseconds(1)) * bytesPerMillisecond), prebuf: UInt32.max,
            minreq: UInt32(min(100, Int(latency / .milliseconds(1)) / 4) * bytesPerMillisecond), fragsize: UInt32.max)
        return pa_stream_connect_playback(stream, sink, &attributes, unmovable, nil, nil) >= 0
    }

    /// Connects `stream` to `source` (the default when `nil`), never moved to another source,
    /// in fragments of `fragmentBytes`; false when refused.
    static func connectRecord(_ stream: OpaquePointer, to source: String?, fragmentBytes: Int) -> Bool {
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                        minreq: UInt32.max, fragsize: UInt32(fragmentBytes))
        return pa_stream_connect_record(stream, source, &attributes, unmovable) >= 0
    }

    private static var unmovable: pa_stream_flags_t {
        pa_stream_flags_t(rawValue: PA_STREAM_DONT_MOVE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue)
    }

    static func state(_ stream: OpaquePointer) -> State {
        switch pa_stream_get_state(stream) {
        case PA_STREAM_CREATING: .creating
        case PA_STREAM_READY: .ready
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED: .ended
        default: .other
        }
    }

    /// How many bytes the server takes now; nil on an error.
    static func writableSize(_ stream: OpaquePointer) -> Int? {
        let writable = pa_stream_writable_size(stream)
        return writable == Int.max ? nil : writable  // (size_t)-1 is an error
    }

    /// Hands `samples` to the server; false when it failed.
    static func write(_ samples: ArraySlice<Float>, to stream: OpaquePointer) -> Bool {
        samples.withUnsafeBytes { bytes in pa_stream_write(stream, bytes.baseAddress, bytes.count, nil, 0, PA_SEEK_RELATIVE) } >= 0
    }

    /// Takes every readable fragment out of `stream`: `take` gets its samples, or nil and the
    /// count for a hole (the server dropped data).
    static func readFragments(_ stream: OpaquePointer, channels: Int, _ take: (UnsafeBufferPointer<Float>?, Int) -> Void) {
        var data: UnsafeRawPointer?
        var bytes = 0
        while pa_stream_peek(stream, &data, &bytes) == 0, bytes > 0 {
            let count = bytes / MemoryLayout<Float>.size
            let usable = count - count % channels
            take(data.map { UnsafeBufferPointer(start: $0.assumingMemoryBound(to: Float.self), count: usable) }, usable)
            pa_stream_drop(stream)
        }
    }

    /// Asks the server to play out what it holds; `done` hears how it went. False when the
    /// request could not be made (`done` is not resumed then).
    static func drain(_ stream: OpaquePointer, done: OneShot<Void>) -> Bool {
        let box = Unmanaged.passRetained(done).toOpaque()
        guard let operation = pa_stream_drain(stream, { _, success, userdata in
            let done = Unmanaged<OneShot<Void>>.fromOpaque(userdata!).takeRetainedValue()
            done.resume(with: success != 0 ? .success(()) : .failure(StreamSessionError.audioStreamingError("drain failed")))
        }, box) else {
            Unmanaged<OneShot<Void>>.fromOpaque(box).release()
            return false
        }
        pa_operation_unref(operation)
        return true
    }

    /// Drops what the server holds for `stream`.
    static func flush(_ stream: OpaquePointer) {
        if let operation = pa_stream_flush(stream, nil, nil) { pa_operation_unref(operation) }
    }

    /// Stops the callbacks, disconnects (when connected or connecting) and lets go of `stream`.
    static func release(_ stream: OpaquePointer) {
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_set_state_callback(stream, nil, nil)
        if state(stream) == .ready || state(stream) == .creating { pa_stream_disconnect(stream) }
        pa_stream_unref(stream)
    }
}

extension PulseEndpointInfo {
    init(sink info: pa_sink_info) {
        self.init(
            index: info.index, name: info.name, description: info.description, sampleSpec: info.sample_spec, proplist: info.proplist,
            running: info.state == PA_SINK_RUNNING, suspended: info.state == PA_SINK_SUSPENDED, isMonitor: false, card: info.card)
    }

    init(source info: pa_source_info) {
        self.init(
            index: info.index, name: info.name, description: info.description, sampleSpec: info.sample_spec, proplist: info.proplist,
            running: info.state == PA_SOURCE_RUNNING, suspended: info.state == PA_SOURCE_SUSPENDED,
            isMonitor: info.monitor_of_sink != UInt32.max, card: info.card)
    }

    /// From the fields libpulse's sink and source infos share.
    init(
        index: UInt32, name: UnsafePointer<CChar>, description: UnsafePointer<CChar>?, sampleSpec: pa_sample_spec,
        proplist: OpaquePointer?, running: Bool, suspended: Bool, isMonitor: Bool, card: UInt32
    ) {
        self.init(
            index: index, name: String(cString: name), description: description.map { String(cString: $0) } ?? "",
            rate: Int(sampleSpec.rate), channels: Int(sampleSpec.channels), properties: PulseProperties.dictionary(proplist),
            running: running, suspended: suspended, isMonitor: isMonitor, card: card)
    }
}
