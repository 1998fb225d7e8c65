import AudioCore
import Foundation
import TestKit
import Testing

@Suite("Dedicated threads for blocking work", .oneAtATime)
struct DedicatedThreadExecutorTests {
    struct Refused: Error, Equatable {}

    @Test("run hands back the work's value and its error")
    func runReturnsTheWorksOutcome() async throws {
        #expect(try await DedicatedThreadExecutor.run(named: "answer") { 42 } == 42)
        await #expect(throws: Refused()) { try await DedicatedThreadExecutor.run(named: "refusal") { throw Refused() } }
    }

    @Test("run passes the caller's cancellation to work that checks it")
    func runForwardsCancellation() async throws {
        let started = DispatchSemaphore(value: 0)
        let caller = Task {
            try await DedicatedThreadExecutor.run(named: "checks cancellation") {
                started.signal()
                while !Task.isCancelled { usleep(1000) }
                throw CancellationError()
            }
        }
        await Task.detached { started.wait() }.value
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
    }

    @Test("a cancelled caller stops waiting for a call that cannot be interrupted; the call ends on its thread")
    func abandonedCallEndsOnItsOwnThread() async throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let caller = Task {
            try await DedicatedThreadExecutor.runAbandoningOnCancel(named: "blocking call") {
                started.signal()
                release.wait()  // a C call that cannot be stopped
                finished.signal()
                return 42
            }
        }
        await Task.detached { started.wait() }.value
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(finished.wait(timeout: .now()) == .timedOut, "the caller waited for the blocked call")  // a look, not a wait
        release.signal()
        await Task.detached { finished.wait() }.value
    }

    @Test("runAbandoningOnCancel hands back the work's value and its error when not cancelled")
    func abandoningRunReturnsTheWorksOutcome() async throws {
        #expect(try await DedicatedThreadExecutor.runAbandoningOnCancel(named: "answer") { 42 } == 42)
        await #expect(throws: Refused()) {
            try await DedicatedThreadExecutor.runAbandoningOnCancel(named: "refusal") { () throws -> Int in throw Refused() }
        }
    }

    @Test("blocked work on its own threads leaves the cooperative pool free, more of it than the pool has threads")
    func blockedWorkLeavesThePoolFree() async {
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let (finished, continuation) = AsyncStream.makeStream(of: Int.self)
        for index in 0..<count {
            DedicatedThreadExecutor.detach(named: "blocked \(index)") {
                started.signal()
                release.wait()
                continuation.yield(index)
            }
        }
        for _ in 0..<count { await Task.detached { started.wait() }.value }
        // Every one of them is blocked now: a task still runs on the pool.
        #expect(await Task.detached { 6 * 7 }.value == 42)
        for _ in 0..<count { release.signal() }
        var ended = Set<Int>()
        for await index in finished {
            ended.insert(index)
            if ended.count == count { break }
        }
        #expect(ended == Set(0..<count))
    }
}
