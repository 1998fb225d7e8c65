import Synchronization
public import Store

/// What the HTTP API and the assistant's wiring share about the assistant: the settings in
/// force (read by the voice stage when it opens a route, so a new wake word applies to the
/// next listening session). Whether it sleeps is the assistant's own phase
/// (`AssistantService.phase`), not kept here.
public final class AssistantState: Sendable {
    private let state: Mutex<AssistantSettings>
    private let wakeWordChanged: AsyncStream<Void>.Continuation
    /// One element after the wake word changed (the latest only, for one follower: the wake
    /// word's preparation).
    let wakeWordChanges: AsyncStream<Void>

    public init(settings: AssistantSettings) {
        state = Mutex(settings)
        (wakeWordChanges, wakeWordChanged) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    public var settings: AssistantSettings {
        get { state.withLock { $0 } }
        set { changeSettings { _ in newValue } }
    }

    /// Makes the settings `write` returns the ones in force, under the same lock that orders
    /// every change: `write` stores the change (reading the stored value), so two changes at once
    /// reach the database and memory in the same order, and memory always equals the database.
    public func changeSettings<Failure: Error>(_ write: (AssistantSettings) throws(Failure) -> AssistantSettings) throws(Failure) {
        let wakeWordChanged = try state.withLock { settings throws(Failure) in
            let before = settings.wakeWord
            settings = try write(settings)
            return settings.wakeWord != before
        }
        if wakeWordChanged { self.wakeWordChanged.yield() }
    }
}
