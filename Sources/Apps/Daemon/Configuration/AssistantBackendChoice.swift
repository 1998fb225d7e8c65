/// Where the daemon's assistant sends each captured command (`assistant-backend`).
public enum AssistantBackendChoice: String, Sendable, CaseIterable {
    /// The offline grammar (LocalAssistant).
    case local
    /// Home Assistant, connected to the Wyoming satellite port (run-pipeline, TTS audio back).
    case homeAssistant = "home-assistant"
    /// A custom backend connected to `/api/assistant` (WebSocket).
    case websocket
}
