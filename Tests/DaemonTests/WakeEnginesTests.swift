import AssistantAssembly
import Foundation
import Synchronization
import TestKit
import Testing
import WakeRuntime

/// The wake engines' preparation, with a preparation that the test holds and lets go: a phrase
/// is prepared by one caller, the others wait for it, and it says how far it is meanwhile.
@Suite("wake engines: one preparation per phrase", .oneAtATime)
struct WakeEnginesTests {
    /// A preparation that reports half way, then waits for `release`.
    final class HeldPreparation: Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let runs = Mutex(0)

        var engines: WakeEngines {
            WakeEngines(choose: { _ in .dtw }) { [self] _, _ in
                runs.withLock { $0 += 1 }
                WakePreparationProgress.report?(0.5)
                started.signal()
                release.wait()
                return .dtw([])
            }
        }
    }

    @Test("while a phrase is prepared its readiness says how far; a second caller waits for it instead of preparing it again")
    func onePreparationPerPhrase() async throws {
        let held = HeldPreparation()
        let engines = held.engines
        #expect(engines.readiness(of: "hey glasses") == .notPrepared)
        let heard = Mutex<[Double]>([])
        let first = Task.detached { try await engines.engine(for: "hey glasses", progress: { share in heard.withLock { $0.append(share) } }).choice }
        held.started.wait()
        #expect(engines.readiness(of: "hey glasses") == .preparing(progress: 0.5))
        #expect(heard.withLock { $0 } == [0.5])
        let second = Task.detached { try await engines.engine(for: "hey glasses").choice }
        held.release.signal()
        #expect(try await first.value == .dtw)
        #expect(try await second.value == .dtw)
        #expect(held.runs.withLock { $0 } == 1)
        #expect(engines.readiness(of: "hey glasses") == .ready(.dtw))
    }

    @Test("a caller waiting for another's preparation stops when its task is cancelled")
    func aWaiterIsCancellable() async throws {
        let held = HeldPreparation()
        let engines = held.engines
        let first = Task.detached { try await engines.engine(for: "hey glasses").choice }
        held.started.wait()
        let waiter = Task.detached { try await engines.engine(for: "hey glasses").choice }
        waiter.cancel()
        await #expect(throws: WakeWordBuildError.self) { try await waiter.value }
        held.release.signal()
        #expect(try await first.value == .dtw)
    }

    /// More blocked preparations than the cooperative pool has threads: were they run on the
    /// pool, nothing else could run (this test would hang).
    @Test("preparations run on threads of their own: more of them than the pool has threads leave it free")
    func preparationsLeaveThePoolFree() async throws {
        let held = HeldPreparation()
        let engines = held.engines
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let preparations = (0..<count).map { index in Task.detached { try await engines.engine(for: "phrase \(index)").choice } }
        for _ in 0..<count { held.started.wait() }
        #expect(await Task.detached { true }.value)
        for _ in 0..<count { held.release.signal() }
        for preparation in preparations { #expect(try await preparation.value == .dtw) }
        #expect(held.runs.withLock { $0 } == count)
    }
}
