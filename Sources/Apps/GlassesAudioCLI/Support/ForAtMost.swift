import AudioCore

/// Runs `body` until it ends, or for at most `limit` (a command's `--seconds`), when it is
/// cancelled and this returns normally.
func forAtMost(_ limit: Duration?, _ body: @escaping @Sendable () async throws -> Void) async throws {
    guard let limit else { return try await body() }
    _ = try await withTimeout(limit, body)
}
