import HTTPTypes
public import Hummingbird

/// Lets a request through only with the right `X-API-Key` (401 otherwise).
public struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let key: APIKey
    static var header: HTTPField.Name { HTTPField.Name("X-API-Key")! }

    public init(key: APIKey) { self.key = key }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let given = request.headers[Self.header]
        guard key.matches(given) else {
            throw APIError(.unauthorized, given == nil ? "the X-API-Key header is missing (the key is in DATA_DIR/api_key)" : "the X-API-Key is wrong")
        }
        return try await next(request, context)
    }
}
