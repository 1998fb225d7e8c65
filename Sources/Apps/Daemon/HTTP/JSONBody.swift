import Foundation
import Hummingbird
import Store

/// Reads a request's JSON body within the configured limit: 413 over it, 400 naming the
/// field for anything a client got wrong (not JSON, a missing field, a wrong type).
enum JSONBody {
    /// The body's bytes; 413 over `limit`.
    static func data(of request: Request, limit: Int) async throws -> Data {
        var request = request
        do {
            return Data(try await request.collectBody(upTo: limit).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, "the request body is over \(limit) bytes")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int, example: String) async throws -> T {
        let body = try await data(of: request, limit: limit)
        do { return try SettingsChange.decode(T.self, from: body, example: example) } catch { throw APIError.badRequest(error.description) }
    }
}
