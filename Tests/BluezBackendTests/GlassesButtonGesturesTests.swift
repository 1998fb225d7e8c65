import BluezBackend
import Testing

extension GlassesButtonTests {
    /// Times as the kernel stamps them (any origin will do: only differences count).
    static let start: Duration = .seconds(1_800_000_000)

    @Test(
        "a touch released before 3 s is a short touch; one released at 3 s or later, with no tick between, is a long press",
        arguments: [(Duration.milliseconds(80), GlassesButtonGestures.Gesture.shortTouch), (.milliseconds(2999), .shortTouch),
                    (.seconds(3), .longPress), (.seconds(7), .longPress)])
    func gestureAtRelease(held: Duration, expected: GlassesButtonGestures.Gesture) {
        var gestures = GlassesButtonGestures()
        #expect(gestures.pressed(at: Self.start) == Self.start + .seconds(3))
        #expect(gestures.released(at: Self.start + held) == expected)
        #expect(gestures.released(at: Self.start + held + .seconds(1)) == nil)  // up already
    }

    @Test("a key held down is a long press at its tick, while still held, once; its release then means nothing")
    func longPressWhileHeld() {
        var gestures = GlassesButtonGestures()
        let deadline = gestures.pressed(at: Self.start)
        #expect(gestures.tick(now: deadline - .milliseconds(1)) == nil)  // early (a tick of an earlier press)
        #expect(gestures.tick(now: deadline) == .longPress)
        #expect(gestures.tick(now: deadline + .seconds(1)) == nil)
        #expect(gestures.released(at: deadline + .seconds(2)) == nil)
        // The next touch starts afresh.
        _ = gestures.pressed(at: deadline + .seconds(5))
        #expect(gestures.released(at: deadline + .seconds(5) + .milliseconds(200)) == .shortTouch)
    }

    @Test("a release without its press is ignored; a second press without a release starts the hold again; a tick with the key up does nothing")
    func lostEdges() {
        var gestures = GlassesButtonGestures()
        #expect(gestures.released(at: Self.start) == nil)
        #expect(gestures.tick(now: Self.start + .seconds(10)) == nil)
        _ = gestures.pressed(at: Self.start)
        let deadline = gestures.pressed(at: Self.start + .seconds(2))
        #expect(deadline == Self.start + .seconds(5))
        #expect(gestures.tick(now: Self.start + .seconds(4)) == nil)
        #expect(gestures.released(at: Self.start + .seconds(4)) == .shortTouch)
    }
}
