import BluezBackend
import DBusKit
import Testing

@Suite struct BluezPairingAgentTests {
    @Test func confirmsJustWorksAndAuthorisations() {
        for method in ["RequestConfirmation", "RequestAuthorization", "AuthorizeService", "DisplayPasskey", "Cancel", "Release"] {
            #expect(BluezPairingAgent.answer(to: method) == .accept, "\(method)")
        }
    }

    @Test func refusesToInventAPinOrPasskey() {
        for method in ["RequestPinCode", "RequestPasskey"] {
            guard case .reject(let reason) = BluezPairingAgent.answer(to: method) else {
                Issue.record("\(method) was accepted")
                continue
            }
            #expect(reason.contains("bluetoothctl"))
        }
    }

    @Test func exportsEveryAgent1Method() {
        let interface = BluezPairingAgent.dbusInterface()
        #expect(interface.name == "org.bluez.Agent1")
        #expect(Set(interface.methods.keys) == [
            "Release", "RequestPinCode", "DisplayPinCode", "RequestPasskey", "DisplayPasskey",
            "RequestConfirmation", "RequestAuthorization", "AuthorizeService", "Cancel",
        ])
        #expect(interface.methods["RequestConfirmation"]?.inSignature == "ou")
    }
}
