import Foundation
import Hummingbird

/// Reads a request's JSON body within the configured limit: 413 over it, 400 naming the
/// field for anything a client got wrong (not JSON, a missing field, a wrong type).
enum JSONBody {
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int, example: String) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, "the request body is over \(limit) bytes")
        }
        guard buffer.readableBytes > 0 else { throw APIError.badRequest("a JSON body is needed, e.g. \(example)") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch DecodingError.keyNotFound(let key, _) {
            throw APIError.badRequest("the field '\(key.stringValue)' is missing; expected e.g. \(example)")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw APIError.badRequest("the field '\(field)' has the wrong type; expected e.g. \(example)")
        } catch {
            throw APIError.badRequest("the body is not valid JSON; expected e.g. \(example)")
        }
    }
}
