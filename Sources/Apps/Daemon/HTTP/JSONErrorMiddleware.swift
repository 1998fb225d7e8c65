public import Hummingbird
import Logging

/// Every error leaves as `{"error": "…"}` with its status: the API's own errors as they are,
/// Hummingbird's (404, 405, 413) with a sentence, anything else as a logged 500.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return JSONResponse.make(["error": error.message], status: error.status)
        } catch let error as HTTPError {
            return JSONResponse.make(["error": Self.message(for: error, request)], status: error.status)
        } catch let error as any HTTPResponseError {
            return JSONResponse.make(["error": error.status.reasonPhrase], status: error.status)
        } catch {
            context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            return JSONResponse.make(["error": "internal error: \(error)"], status: .internalServerError)
        }
    }

    static func message(for error: HTTPError, _ request: Request) -> String {
        if let body = error.body { return body }
        switch error.status {
        case .notFound: return "no such route: \(request.method) \(request.uri.path) (the routes are listed in /api/openapi.yaml)"
        case .methodNotAllowed: return "\(request.method) is not allowed on \(request.uri.path)"
        case .contentTooLarge: return "the request body is too large"
        default: return error.status.reasonPhrase
        }
    }
}
