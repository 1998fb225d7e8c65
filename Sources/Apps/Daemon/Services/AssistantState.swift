import Synchronization
public import Store

/// What the HTTP API and the assistant's wiring share about the assistant: the settings in
/// force (read by the voice stage when it opens a route, so a new wake word applies to the
/// next listening session). Whether it sleeps is the assistant's own phase
/// (`AssistantService.phase`), not kept here.
public final class AssistantState: Sendable {
    private let state: Mutex<AssistantSettings>

    public init(settings: AssistantSettings) {
        state = Mutex(settings)
    }

    public var settings: AssistantSettings {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// Makes the settings `write` returns the ones in force, under the same lock that orders
    /// every change: `write` stores the change (reading the stored value), so two changes at once
    /// reach the database and memory in the same order, and memory always equals the database.
    public func changeSettings(_ write: (AssistantSettings) throws -> AssistantSettings) throws {
        try state.withLock { settings throws in settings = try write(settings) }
    }
}
