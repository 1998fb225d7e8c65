import Assistant
import AudioCore
import Synchronization

/// The daemon's voice timers (``VoiceTimers``) on its clock: Home Assistant's timer events go
/// in, `/api/status` and `glasses-audio status` read them.
public final class VoiceTimerBoard: Sendable {
    private let timers = Mutex(VoiceTimers())
    private let clock: ServiceClock

    public init(clock: ServiceClock) { self.clock = clock }

    public func apply(_ change: VoiceTimers.Change) {
        let now = clock.now
        timers.withLock { $0.apply(change, at: now) }
    }

    public var all: [VoiceTimers.Timer] {
        let now = clock.now
        return timers.withLock { $0.all(at: now) }
    }
}
