import CSpeexDSP

/// SpeexDSP's linear echo filter (`speex_echo_*`): the only file that reaches libspeexdsp.
/// The linear filter only: its residual echo suppressor (the preprocessor) also took the user's
/// own voice out while the reply played (a wake phrase said over a reply 20 dB down at the mic
/// never woke the assistant with it; without it, it did).
final class SpeexEchoFilter: EchoFilter {
    private let state: OpaquePointer

    init(frameSize: Int, sampleRate: Int, tailSamples: Int) {
        state = speex_echo_state_init(Int32(frameSize), Int32(tailSamples))
        var rate = Int32(sampleRate)
        speex_echo_ctl(state, SPEEX_ECHO_SET_SAMPLING_RATE, &rate)
    }

    deinit { speex_echo_state_destroy(state) }

    func cancel(_ mic: UnsafeBufferPointer<Int16>, _ played: [Int16], into cleaned: inout [Int16]) -> Bool {
        speex_echo_cancellation(state, mic.baseAddress, played, &cleaned)
        return true
    }

    var estimatedDelayMilliseconds: (median: Int, deviation: Int)? { nil }
}
