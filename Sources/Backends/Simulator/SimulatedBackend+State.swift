import AudioBackend
import AudioCore
import Foundation
import Routing

/// Work decided under the backend's lock and carried out after it is released
/// (continuations are resumed outside the lock).
struct Effects {
    private var actions: [() -> Void]

    init(_ actions: (() -> Void)...) { self.actions = actions }

    static func + (lhs: Effects, rhs: Effects) -> Effects {
        var sum = lhs
        sum.actions += rhs.actions
        return sum
    }

    mutating func append(_ action: @escaping () -> Void) { actions.append(action) }

    func run() { actions.forEach { $0() } }
}

/// An open capture stream on a simulated mic.
struct Capture {
    var device: DeviceIdentifier
    var endpointName: String
    var deviceRate: Int
    var format: PCMFormat
    var continuation: AsyncThrowingStream<AudioFrame, any Error>.Continuation
    var clock: SampleClock
    var resampler: Resampler?
    var openedAt: Duration
    var deviceFramesConsumed: Int64 = 0
}

/// An open playback stream into a simulated speaker.
struct Playback {
    var device: DeviceIdentifier
    var sinkRate: Int
    /// The rate the writer delivers.
    var inputRate: Int
    /// One streaming converter for the whole stream, so chunk edges stay seamless; flushed
    /// by a drain and made again by the next write.
    var resampler: Resampler?
    /// Mono samples at `sinkRate` waiting to be played.
    var queue: [Float] = []
    var openedAt: Duration = .zero
    var framesPlayed: Int64 = 0
    var error: (any Error)?
    var drainWaiters: [CheckedContinuation<Void, any Error>] = []
}

extension SimulatedBackend {
    struct State {
        var glasses: [DeviceIdentifier: SimulatedGlasses] = [:]
        var order: [DeviceIdentifier] = []
        let hub: RouteEventHub
        var captures: [UUID: Capture] = [:]
        var playbacks: [UUID: Playback] = [:]
        var elapsed: Duration = .zero

        var endpoints: [AudioEndpoint] { order.flatMap { glasses[$0]?.endpoints ?? [] } }

        /// The endpoint called `name` (or a device address), or the first of its direction.
        func endpoint(named name: String?, direction: EndpointDirection) throws(StreamSessionError) -> AudioEndpoint {
            let candidates = endpoints.filter { $0.direction == direction }
            if let name {
                if let endpoint = candidates.first(where: { $0.name == name || $0.device?.rawValue == name }) {
                    return endpoint
                }
                if let device = glasses[DeviceIdentifier(name)] {
                    throw .deviceNotConnected(device.identifier)
                }
                throw .deviceNotFound(DeviceIdentifier(name))
            }
            guard let endpoint = candidates.first else {
                if let first = order.first { throw .deviceNotConnected(first) }
                throw .deviceNotFound(DeviceIdentifier("(none paired)"))
            }
            return endpoint
        }

        /// Delivers `events` once the lock is released.
        func broadcast(_ events: [RouteEvent]) -> Effects {
            guard !events.isEmpty else { return Effects() }
            return Effects { [hub] in hub.broadcast(events) }
        }

        /// Moves audio for every open stream up to the current time; ends streams whose
        /// endpoint is gone with `deviceNotConnected` (seed 000 §7.3: they do not come back).
        mutating func serviceStreams() -> Effects {
            var effects = Effects()
            let live = Set(endpoints.map(\.name))
            for (key, var capture) in captures {
                guard live.contains(capture.endpointName) else {
                    captures.removeValue(forKey: key)
                    let error = StreamSessionError.deviceNotConnected(capture.device)
                    effects.append { capture.continuation.finish(throwing: error) }
                    continue
                }
                let due = SampleTime(at: elapsed - capture.openedAt, sampleRate: capture.deviceRate).frame
                let count = Int(due - capture.deviceFramesConsumed)
                capture.deviceFramesConsumed = due
                guard count > 0, let samples = glasses[capture.device]?.readMic(count) else {
                    captures[key] = capture
                    continue
                }
                var converted = samples
                if let resampler = capture.resampler { converted = (try? resampler.process(samples)) ?? [] }
                let buffer = ChannelMixer.convert(
                    AudioBuffer(format: PCMFormat(sampleRate: capture.format.sampleRate, channels: 1), samples: converted),
                    toChannels: capture.format.channels)
                if !buffer.isEmpty {
                    let frame = capture.clock.stamp(buffer)
                    effects.append { capture.continuation.yield(frame) }
                }
                captures[key] = capture
            }
            for (key, var playback) in playbacks {
                let connected = glasses[playback.device].map { $0.linkState == .connected && $0.activeProfile.hasSpeaker }
                guard connected == true else {
                    if playback.error == nil {
                        playback.error = StreamSessionError.deviceNotConnected(playback.device)
                        let waiters = playback.drainWaiters
                        let error = playback.error!
                        playback.drainWaiters = []
                        playback.queue = []
                        effects.append { waiters.forEach { $0.resume(throwing: error) } }
                    }
                    playbacks[key] = playback
                    continue
                }
                if playback.queue.isEmpty {
                    playback.openedAt = elapsed
                    playback.framesPlayed = 0
                    playbacks[key] = playback
                    continue
                }
                let due = SampleTime(at: elapsed - playback.openedAt, sampleRate: playback.sinkRate).frame
                let count = min(playback.queue.count, Int(due - playback.framesPlayed))
                if count > 0 {
                    let part = AudioBuffer(
                        format: PCMFormat(sampleRate: playback.sinkRate, channels: 1),
                        samples: Array(playback.queue.prefix(count)))
                    playback.queue.removeFirst(count)
                    playback.framesPlayed += Int64(count)
                    try? glasses[playback.device]?.play(part)
                }
                if playback.queue.isEmpty {
                    let waiters = playback.drainWaiters
                    playback.drainWaiters = []
                    effects.append { waiters.forEach { $0.resume() } }
                }
                playbacks[key] = playback
            }
            return effects
        }
    }
}
