import Assistant
import Routing
import Testing
import Voice

extension AssistantTests {
    @Test("the voice stage changed (another wake word): listening starts again on it without sleeping (no asleep, no awake); an opening one opens again; a round trip under way or a ringing timer is left alone")
    func renewListening() {
        for policy in [SwitchingPolicy.voiceFirst, .mediaFirst] {
            var machine = Assistant(configuration: .init(policy: policy))
            _ = machine.handle(.trigger(skipWake: false), at: .zero)
            _ = machine.handle(.routeReady(route), at: .zero)
            #expect(machine.handle(.renewListening, at: .seconds(1)) == [.releaseRoute, .openRoute], "\(policy)")
            #expect(machine.phase == .opening)
            #expect(types(machine.handle(.routeReady(route), at: .seconds(2))).prefix(2) == ["routeReady", "listening"])
            #expect(types(machine.handle(.voice(.wake(wake)), at: .seconds(3))).first == "wake", "listening on the new stage")
            // Capturing: the command under way is kept.
            #expect(machine.handle(.renewListening, at: .seconds(4)).isEmpty)
            #expect(machine.phase == .capturing)
        }
        var opening = Assistant(configuration: .init(policy: .mediaFirst))
        _ = opening.handle(.trigger(skipWake: true), at: .zero)
        #expect(opening.handle(.renewListening, at: .milliseconds(100)) == [.cancelOpening, .openRoute])
        #expect(types(opening.handle(.routeReady(route), at: .seconds(1))).contains("commandStarted"), "push-to-talk stays one")
        var idle = Assistant(configuration: .init(policy: .mediaFirst))
        #expect(idle.handle(.renewListening, at: .zero).isEmpty)
        var asleep = Assistant(configuration: .init(policy: .voiceFirst))
        _ = asleep.handle(.sleep, at: .zero)
        #expect(asleep.handle(.renewListening, at: .seconds(1)).isEmpty)
        #expect(asleep.phase == .asleep)
        var ringing = Assistant(configuration: .init(policy: .voiceFirst))
        _ = ringing.handle(.trigger(skipWake: false), at: .zero)
        _ = ringing.handle(.routeReady(route), at: .zero)
        _ = ringing.handle(.timerFinished(name: "tea"), at: .seconds(1))
        #expect(ringing.handle(.renewListening, at: .seconds(2)).isEmpty)
    }
}
