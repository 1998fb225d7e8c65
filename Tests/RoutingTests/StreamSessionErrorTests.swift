import Routing
import TestKit
import Testing

@Suite("Stream session errors (seed 000 §5.6)", .oneAtATime)
struct StreamSessionErrorTests {
    static let messages: [(StreamSessionError, String)] = [
        (.internalError("x"), "An internal error occurred. Please try again."),
        (.deviceNotFound(Fixture.glasses), "Device not found. Please ensure your device is connected."),
        (.deviceNotConnected(Fixture.glasses), "Device not connected. Please check your connection and try again."),
        (.timeout, "The operation timed out. Please try again."),
        (.audioStreamingError("x"), "Audio streaming failed. Please try again."),
        (.permissionDenied, "Microphone permission denied. Please grant access to the audio device."),
        (.sessionConflict(Fixture.glasses), "The device is busy with another session. Stop it first, then try again."),
    ]

    @Test("each error has its user-facing message", arguments: messages)
    func userMessage(error: StreamSessionError, message: String) {
        #expect(error.userMessage == message)
        #expect(error.description.hasPrefix(message))
    }

    @Test("descriptions name the device or detail")
    func details() {
        #expect(StreamSessionError.deviceNotFound(Fixture.glasses).description.contains(Fixture.glasses.rawValue))
        #expect(StreamSessionError.audioStreamingError("sink gone").description.contains("sink gone"))
    }
}
