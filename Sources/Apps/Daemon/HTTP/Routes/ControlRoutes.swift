import Assistant
import AssistantService
import Hummingbird

/// `POST /api/control/sleep|wake` (seed 001) and `POST /api/listen` (push-to-talk).
struct ControlRoutes {
    let context: DaemonContext

    func add(to router: Router<DaemonRequestContext>) {
        // Each answers once the assistant has done it: `/api/status` says so at once.
        router.post("/api/control/sleep") { _, _ in
            await context.assistant.sleep()
            return JSONResponse.make(["success": JSONValue.bool(true), "message": "Going to sleep"])
        }
        router.post("/api/control/wake") { _, _ in
            await context.assistant.wake()
            return JSONResponse.make(["success": JSONValue.bool(true), "message": "Waking up"])
        }
        router.post("/api/listen") { _, _ in
            guard await PushToTalk.start(context.assistant) else {
                throw APIError(.conflict, "the assistant is asleep: POST /api/control/wake first")
            }
            return JSONResponse.make(["success": JSONValue.bool(true), "message": "Listening for a command"], status: .accepted)
        }
    }
}
