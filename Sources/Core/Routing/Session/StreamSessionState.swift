/// The states of a stream session (seed 000 §5.5).
public enum StreamSessionState: String, Sendable, Codable, Hashable, CaseIterable {
    case stopped
    case waitingForDevice
    case starting
    case streaming
    case paused
    case stopping
}

/// Why a stream session failed (seed 000 §5.6), each with the message a person sees.
public enum StreamSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    case internalError(String)
    case deviceNotFound(DeviceIdentifier)
    case deviceNotConnected(DeviceIdentifier)
    case timeout
    case audioStreamingError(String)
    case permissionDenied
    /// Another session already holds this device (seed 000 §9, "one session per device").
    case sessionConflict(DeviceIdentifier)

    /// The user-facing message (seed 000 §5.6).
    public var userMessage: String {
        switch self {
        case .internalError: "An internal error occurred. Please try again."
        case .deviceNotFound: "Device not found. Please ensure your device is connected."
        case .deviceNotConnected: "Device not connected. Please check your connection and try again."
        case .timeout: "The operation timed out. Please try again."
        case .audioStreamingError: "Audio streaming failed. Please try again."
        case .permissionDenied: "Microphone permission denied. Please grant access to the audio device."
        case .sessionConflict: "The device is busy with another session. Stop it first, then try again."
        }
    }

    public var description: String {
        switch self {
        case .internalError(let detail): "\(userMessage) (\(detail))"
        case .deviceNotFound(let id), .deviceNotConnected(let id), .sessionConflict(let id):
            "\(userMessage) (\(id))"
        case .audioStreamingError(let detail): "\(userMessage) (\(detail))"
        case .timeout, .permissionDenied: userMessage
        }
    }
}
