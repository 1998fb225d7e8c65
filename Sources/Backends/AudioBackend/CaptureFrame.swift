/// How much audio a device backend's capture stream hands on at a time, whatever the server or
/// the hardware moves in one go: 80 ms, the neural wake engine's own step. Each frame wakes the
/// reader's task and the voice stage's; with 20 ms frames those hand-offs cost a listening
/// session more than its wake engine (issue 30: 2.43 → 1.57 % of a core on PipeWire). A wake or
/// the end of a command is heard at most one frame later.
public enum CaptureFrame {
    public static let milliseconds = 80
    public static let duration = Duration.milliseconds(milliseconds)

    /// Frames (one sample a channel) of one capture frame at `sampleRate`.
    public static func frames(sampleRate: Int) -> Int { sampleRate * milliseconds / 1000 }
}
