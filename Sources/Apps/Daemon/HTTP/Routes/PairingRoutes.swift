import CompanionBLE
import Hummingbird

/// `POST /api/pairing`: opens a pairing window for the companion app. The glasses speak a
/// fresh 6-digit code, which the app writes over Bluetooth LE to get the API key, once.
/// 409 when Bluetooth LE is off or cannot pair now (no BlueZ, no LE adapter), saying why.
struct PairingRoutes {
    let context: DaemonContext

    func add(to router: Router<DaemonRequestContext>) {
        router.post("/api/pairing") { _, _ in
            guard let companion = context.companion else {
                throw APIError(.conflict, "Bluetooth LE is off (ble: off); start glasses-audiod with --ble on to pair the companion app")
            }
            do throws(CompanionUnavailable) {
                let length = try companion.openWindow()
                return JSONResponse.make(
                    [
                        "success": JSONValue.bool(true), "state": .string(companion.windowState),
                        "closes_in": .number(Double(length.components.seconds)),
                        "message": .string("The glasses speak a 6-digit code: enter it in the companion app"),
                    ], status: .accepted)
            } catch {
                throw APIError(.conflict, "the companion app cannot pair now: \(error.reason)")
            }
        }
    }
}
