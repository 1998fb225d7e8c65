import Foundation
public import Hummingbird

/// An API error as the client sees it: a status and `{"error": "…"}` saying what was wrong
/// and, for a bad value, what is accepted.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var message: String

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(["error": message], status: status)
    }
}

/// JSON bodies, encoded the same way everywhere (sorted keys, ISO 8601 dates).
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"the answer could not be encoded"}"#.utf8)
        var buffer = ByteBuffer()
        buffer.writeBytes(data)
        buffer.writeString("\n")
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: buffer))
    }
}
