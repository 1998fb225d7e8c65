/// Where one voice round trip stands.
public enum AssistantPhase: String, Sendable, Codable, Hashable, CaseIterable {
    /// Asleep (seed 001 `/control/sleep`): nothing listens, no route is held.
    case asleep
    /// Awake, no route held: waiting for a trigger (mediaFirst) or for the route to come back.
    case idle
    /// A session was asked for: waiting for the readiness gate.
    case opening
    /// The route is ready and the wake word listens.
    case listening
    /// A command is being captured (after the wake word, or at once after a trigger).
    case capturing
    /// The command went to the assistant backend; waiting for its reply.
    case thinking
    /// The reply plays; the wake word still listens (barge-in) through the echo canceller.
    case speaking
}
