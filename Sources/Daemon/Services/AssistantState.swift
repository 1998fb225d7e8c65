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

    public var asleep: Bool {
        get { state.withLock { $0.asleep } }
        set { state.withLock { $0.asleep = newValue } }
    }
}
