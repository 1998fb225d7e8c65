import Hummingbird

/// `GET /api/openapi.yaml`: the API's OpenAPI document (the same text as docs/openapi.yaml;
/// a test keeps the two equal).
struct OpenAPIRoute {
    func add(to router: Router<DaemonRequestContext>) {
        router.get("/api/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml + "\n")))
        }
    }
}
