import CompanionBLE
import TestKit
import Testing

/// The agent glasses-audiod registers while a pairing window is open (bluetoothd lets no phone
/// bond without one): Just Works only, nothing guessed, no service authorised.
@Suite("Companion pairing agent", .oneAtATime)
struct CompanionPairingAgentTests {
    @Test("bonding is confirmed; PINs, passkeys, services and unknown methods are refused")
    func policy() {
        #expect(CompanionPairingAgent.capability == "NoInputNoOutput")
        for method in ["RequestConfirmation", "RequestAuthorization", "Release", "Cancel"] {
            #expect(CompanionPairingAgent.answer(to: method) == .accept, "\(method)")
        }
        for method in ["RequestPinCode", "RequestPasskey", "DisplayPinCode", "DisplayPasskey", "AuthorizeService", "Frobnicate"] {
            guard case .reject(let reason) = CompanionPairingAgent.answer(to: method) else {
                Issue.record("\(method) was accepted")
                continue
            }
            #expect(!reason.isEmpty)
        }
    }
}
