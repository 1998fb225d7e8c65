@testable import AssistantService
import AudioCore
import TestKit
import Testing

/// The mic's history is a ring of a fixed size; what it cuts out must be what a plain array of
/// the whole session would give, for every window it still keeps.
@Suite("CaptureHistory keeps the latest seconds in a ring", .oneAtATime)
struct CaptureHistoryTests {
    static func at(_ frame: Int64) -> SampleTime { SampleTime(frame: frame, sampleRate: CaptureHistory.sampleRate) }

    /// A small deterministic generator, so a failure is reproducible.
    struct Steps {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test("the kept span comes from the capture limit and its margin")
    func span() {
        #expect(CaptureHistory(keeping: .seconds(2)).limit == 32000)
        #expect(CaptureHistory(keeping: .milliseconds(1500)).limit == 24000)
        #expect(CaptureHistory(keeping: .zero).limit == 16000)
        #expect(CaptureHistory(captureLimit: .seconds(24)).limit == 29 * 16000)
    }

    @Test("windows match a whole-session array, across every wrap and append size")
    func matchesWholeSession() {
        var steps = Steps(state: 30)
        for limitSeconds in [1, 2, 3] {
            var history = CaptureHistory(keeping: .seconds(limitSeconds))
            var session: [Float] = []
            for _ in 0..<400 {
                // Appends of 0 samples up to past the ring's size.
                let count = steps.next(steps.next(4) == 0 ? history.limit * 2 : 3000)
                let new = (0..<count).map { Float(session.count + $0) }
                session += new
                history.append(new)
                #expect(history.written == Int64(session.count))
                let first = Int64(max(0, session.count - history.limit))
                #expect(history.firstKept == first)
                for _ in 0..<4 {
                    let start = Int64(steps.next(session.count + 2000)) - 1000
                    let end = start + Int64(steps.next(history.limit + 2000))
                    let lo = max(first, start), hi = min(Int64(session.count), end)
                    let expected = lo < hi ? Array(session[Int(lo)..<Int(hi)]) : []
                    #expect(history.samples(from: Self.at(start), to: Self.at(end)) == expected)
                }
            }
        }
    }

    @Test("a command as long as the capture limit is still whole when it ends")
    func longestCommand() {
        let limit = Duration.seconds(24)
        var history = CaptureHistory(captureLimit: limit)
        // A minute of mic before the wake word, then a capture that lasts the whole limit.
        let frame = 1280  // 80 ms frames, as the routes deliver them
        var clock: Int64 = 0
        func feed(seconds: Int) {
            for _ in 0..<(seconds * CaptureHistory.sampleRate / frame) {
                history.append((0..<frame).map { Float(clock + Int64($0)) })
                clock += Int64(frame)
            }
        }
        feed(seconds: 60)
        let wake = clock
        feed(seconds: 24)
        // The endpointer's pre-roll reaches half a second before the capture opened.
        let start = wake - 8000
        let cut = history.samples(from: Self.at(start), to: Self.at(clock))
        #expect(cut.count == Int(clock - start))
        #expect(cut.first == Float(start) && cut.last == Float(clock - 1))
    }
}
