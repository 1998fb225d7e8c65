import Testing

/// Runs every test case of the package alone, whatever `swift test` is asked for.
///
/// The tests start real sound servers, dbus-daemons, emulators and daemons, and many wait on
/// them from the cooperative pool (a child's exit, a pipe's read). Swift Testing runs suites in
/// parallel by default: on a 2-core machine, 275 tests started at once held both of the pool's
/// threads and none finished. Every top-level suite carries this trait (`scripts/run-tests`
/// checks that none lacks it), so plain `swift test` and `swift test --no-parallel` run the
/// same way: one test case at a time, the others suspended (not blocking a thread) in line.
public struct OneAtATime: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// A scope around each test case only: a suite holding the turn would lock out its own tests.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> OneAtATime? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await TestTurns.shared.take()
        do {
            try await function()
        } catch {
            await TestTurns.shared.pass()
            throw error
        }
        await TestTurns.shared.pass()
    }
}

extension Trait where Self == OneAtATime {
    /// The test cases under this suite run one at a time, and never beside another suite's.
    public static var oneAtATime: Self { OneAtATime() }
}

/// First come, first served: one holder, the rest waiting in order of arrival.
actor TestTurns {
    static let shared = TestTurns()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func pass() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
