/// The timers a voice assistant keeps for the glasses ("set a timer for five minutes" to Home
/// Assistant), as its timer events tell them: what is left of each, at a time given as a value.
/// Home Assistant counts; this keeps what it said, so `status` can show it and a finished timer
/// can ring.
public struct VoiceTimers: Sendable, Equatable {
    /// What the assistant said happened to a timer.
    public enum Change: Sendable, Equatable {
        /// A new timer of `total`.
        case started(id: String, name: String?, total: Duration)
        /// Paused, resumed, or time added or taken: `left` of it now.
        case updated(id: String, left: Duration, isActive: Bool)
        case cancelled(id: String)
        /// It reached zero: it rings until it is stopped (``dismissFinished()``).
        case finished(id: String)
    }

    /// A timer as `status` shows it.
    public struct Timer: Sendable, Equatable, Encodable {
        public let id: String
        public let name: String?
        /// The length it was started with.
        public let total: Duration
        /// What is left now (zero once finished).
        public let left: Duration
        public let isActive: Bool
        public let isFinished: Bool

        public init(id: String, name: String?, total: Duration, left: Duration, isActive: Bool, isFinished: Bool) {
            self.id = id
            self.name = name
            self.total = total
            self.left = left
            self.isActive = isActive
            self.isFinished = isFinished
        }

        enum CodingKeys: String, CodingKey { case id, name, totalSeconds = "total_seconds", secondsLeft = "seconds_left", active, finished }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(Int(total.components.seconds), forKey: .totalSeconds)
            try container.encode(Int(left.components.seconds), forKey: .secondsLeft)
            try container.encode(isActive, forKey: .active)
            try container.encode(isFinished, forKey: .finished)
        }
    }

    private struct Kept: Sendable, Equatable {
        var name: String?
        var total: Duration
        /// Running: when it ends; paused or finished: nil.
        var endsAt: Duration?
        /// Paused: what is left.
        var left: Duration
        var finished = false
        /// The order it was started in.
        var number: Int
    }

    private var timers: [String: Kept] = [:]
    private var started = 0

    public init() {}

    /// Takes one change at `now`; an update, cancel or finish of a timer it never heard of is
    /// kept as far as it says (a daemon started after the timer was set still shows it).
    public mutating func apply(_ change: Change, at now: Duration) {
        switch change {
        case .started(let id, let name, let total):
            started += 1
            timers[id] = Kept(name: name, total: total, endsAt: now + total, left: total, number: started)
        case .updated(let id, let left, let isActive):
            var timer = timers[id] ?? { started += 1; return Kept(name: nil, total: left, left: left, number: started) }()
            timer.left = left
            timer.endsAt = isActive ? now + left : nil
            timer.finished = false
            timers[id] = timer
        case .cancelled(let id):
            timers[id] = nil
        case .finished(let id):
            var timer = timers[id] ?? { started += 1; return Kept(name: nil, total: .zero, left: .zero, number: started) }()
            timer.endsAt = nil
            timer.left = .zero
            timer.finished = true
            timers[id] = timer
        }
    }

    /// The finished timers stop ringing (the user said "stop" or the wake word): they are gone.
    public mutating func dismissFinished() {
        timers = timers.filter { !$0.value.finished }
    }

    /// Whether a finished timer rings now.
    public var isRinging: Bool { timers.values.contains { $0.finished } }

    /// Every timer at `now`, in the order they were started.
    public func all(at now: Duration) -> [Timer] {
        timers.sorted { $0.value.number < $1.value.number }.map { id, kept in
            let left = kept.endsAt.map { max(.zero, $0 - now) } ?? kept.left
            return Timer(id: id, name: kept.name, total: kept.total, left: left, isActive: kept.endsAt != nil, isFinished: kept.finished)
        }
    }
}
