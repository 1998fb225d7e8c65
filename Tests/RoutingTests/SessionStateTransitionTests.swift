import Routing
import TestKit
import Testing

@Suite("Stream session states (seed 000 §5.5)", .oneAtATime)
struct SessionStateTransitionTests {
    static let allowed: Set<[StreamSessionState]> = [
        [.stopped, .waitingForDevice], [.stopped, .starting],
        [.waitingForDevice, .starting], [.waitingForDevice, .stopping],
        [.starting, .streaming], [.starting, .stopping],
        [.streaming, .paused], [.streaming, .stopping],
        [.paused, .streaming], [.paused, .stopping],
        [.stopping, .stopped],
    ]

    static let pairs: [(StreamSessionState, StreamSessionState)] = StreamSessionState.allCases.flatMap { from in
        StreamSessionState.allCases.map { (from, $0) }
    }

    @Test("the transition table", arguments: pairs)
    func table(from: StreamSessionState, to: StreamSessionState) {
        #expect(from.canMove(to: to) == Self.allowed.contains([from, to]))
    }

    @Test("a session refuses a move §5.5 does not allow")
    func refusesInvalidMove() {
        var session = StreamSession(id: 1, request: Fixture.capture)
        #expect(session.move(to: .streaming) == nil)
        #expect(session.state == .stopped)
        #expect(session.move(to: .starting) == .sessionStateChanged(1, .starting))
        #expect(session.move(to: .stopped) == nil)
        #expect(session.move(to: .stopping) == .sessionStateChanged(1, .stopping))
        #expect(session.move(to: .stopped) == .sessionStateChanged(1, .stopped))
    }

    @Test("only starting, streaming and paused hold the device")
    func holdsDevice() {
        #expect(StreamSessionState.allCases.filter(\.holdsDevice) == [.starting, .streaming, .paused])
    }
}
