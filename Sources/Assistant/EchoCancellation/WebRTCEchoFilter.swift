import CWebRTCAudioProcessing

/// webrtc-audio-processing's echo canceller through our small C++ shim (`webrtc_echo_*`): the
/// only file that reaches it.
final class WebRTCEchoFilter: EchoFilter {
    private let handle: OpaquePointer

    init?(sampleRate: Int) {
        guard let handle = webrtc_echo_create(Int32(sampleRate)) else { return nil }
        self.handle = handle
    }

    deinit { webrtc_echo_destroy(handle) }

    func cancel(_ mic: UnsafeBufferPointer<Int16>, _ played: [Int16], into cleaned: inout [Int16]) -> Bool {
        var far = played.map { Float($0) / 32768 }
        var near = mic.map { Float($0) / 32768 }
        guard webrtc_echo_render(handle, &far) == 0, webrtc_echo_capture(handle, &near) == 0 else { return false }
        cleaned = near.map(EchoCanceller.pcm)
        return true
    }

    var estimatedDelayMilliseconds: (median: Int, deviation: Int)? {
        var median: Int32 = 0
        var deviation: Int32 = 0
        guard webrtc_echo_delay(handle, &median, &deviation) == 0, median >= 0 else { return nil }
        return (Int(median), Int(deviation))
    }
}
