/// Where the daemon's assistant sends each captured command (`assistant-backend`).
public enum AssistantBackendChoice: String, Sendable, CaseIterable {
    /// Whichever is connected as each command starts: Home Assistant when it runs the
    /// Wyoming satellite, else a custom backend on `/api/assistant`, else the local grammar.
    case auto
    /// The offline grammar (LocalAssistant).
    case local
    /// Home Assistant, connected to the Wyoming satellite port (run-pipeline, TTS audio back).
    case homeAssistant = "home-assistant"
    /// A custom backend connected to `/api/assistant` (WebSocket).
    case websocket
}
