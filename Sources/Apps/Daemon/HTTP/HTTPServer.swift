import AssistantSocket
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle

/// The HTTP API (REST, server-sent events, metrics, the OpenAPI document) as a Hummingbird
/// application, itself a Service. Says READY to systemd and logs its address once it listens.
public enum HTTPServer {
    public static func make(_ context: DaemonContext) -> some Service {
        let router = APIRouter.make(context)
        let configuration = context.configuration
        let logger = context.logger
        let notifier = context.notifier
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: AssistantSocketHub.webSocketConfiguration)),
            configuration: .init(address: .hostname(configuration.bind, port: configuration.httpPort), serverName: "glasses-audiod"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.httpPort
                logger.info("HTTP API listening on http://\(configuration.bind):\(port)")
                notifier.ready(status: "listening on \(configuration.bind):\(port)")
            },
            logger: logger)
    }
}
