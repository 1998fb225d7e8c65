/// Runs `body`, then `teardown` — awaited, whether `body` returned or threw: what
/// `defer { Task { await x.stop() } }` meant, without leaving the stop running after the test.
public func withTeardown<Value>(_ teardown: () async -> Void, _ body: () async throws -> Value) async throws -> Value {
    let value: Value
    do {
        value = try await body()
    } catch {
        await teardown()
        throw error
    }
    await teardown()
    return value
}
