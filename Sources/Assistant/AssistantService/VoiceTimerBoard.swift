public import Assistant
public import AudioCore
import Synchronization

/// The voice timers (``VoiceTimers``) on the service's clock: the assistant backend's timer
/// events go in (Home Assistant's, over Wyoming or the ESPHome API), `/api/status` and
/// `glasses-audio status` read them, and each timer that finishes is told to the assistant,
/// which rings it (``finishes``) and dismisses it when the ringing stops.
public final class VoiceTimerBoard: Sendable {
    private let timers = Mutex(VoiceTimers())
    private let clock: ServiceClock
    /// The name (or nil) of each timer that finished, for its one follower: the assistant.
    public let finishes: AsyncStream<String?>
    private let finished: AsyncStream<String?>.Continuation

    public init(clock: ServiceClock) {
        self.clock = clock
        (finishes, finished) = AsyncStream.makeStream(of: String?.self, bufferingPolicy: .bufferingNewest(16))
    }

    public func apply(_ change: VoiceTimers.Change) {
        let now = clock.now
        let name: String?? = timers.withLock { timers in
            timers.apply(change, at: now)
            guard case .finished(let id) = change else { return nil }
            return .some(timers.all(at: now).first { $0.id == id }?.name)
        }
        if let name { finished.yield(name) }
    }

    /// The finished timers stopped ringing: they are gone.
    public func dismissFinished() {
        timers.withLock { $0.dismissFinished() }
    }

    public var all: [VoiceTimers.Timer] {
        let now = clock.now
        return timers.withLock { $0.all(at: now) }
    }
}
