import Hummingbird
import Prometheus

/// `GET /metrics`: the Prometheus text format (HTTP requests, events by type, SSE clients).
struct MetricsRoutes {
    let context: DaemonContext

    func add(to router: Router<DaemonRequestContext>) {
        router.get("/metrics") { _, _ in
            var buffer = ByteBuffer()
            buffer.writeBytes(context.metrics.emitToBuffer())
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: ResponseBody(byteBuffer: buffer))
        }
    }
}
