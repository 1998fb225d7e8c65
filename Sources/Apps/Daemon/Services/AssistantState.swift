import Synchronization
public import Store

/// What the HTTP API and the assistant's wiring share about the assistant: the settings in
/// force (read by the voice stage when it opens a route, so a new wake word applies to the
/// next listening session) and whether it sleeps.
public final class AssistantState: Sendable {
    private let state: Mutex<(settings: AssistantSettings, asleep: Bool)>

    public init(settings: AssistantSettings) {
        state = Mutex((settings, false))
    }

    public var settings: AssistantSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Makes the settings `write` returns the ones in force, under the same lock that orders
    /// every change: `write` stores the change (reading the stored value), so two changes at once
    /// reach the database and memory in the same order, and memory always equals the database.
    public func changeSettings(_ write: (AssistantSettings) throws -> AssistantSettings) throws {
        try state.withLock { state throws in state.settings = try write(state.settings) }
    }

    public var asleep: Bool {
        get { state.withLock { $0.asleep } }
        set { state.withLock { $0.asleep = newValue } }
    }
}
