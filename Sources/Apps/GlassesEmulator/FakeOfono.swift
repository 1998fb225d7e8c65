import BluetoothIDs
import DBusKit
import Logging
import Synchronization
import Foundation

/// The `org.ofono` side: the hands-free audio manager the sound server registers its agent
/// with, and one card per connected pair of glasses whose `Acquire` hands over the voice link.
extension GlassesEmulator {
    func managerInterface() -> DBusInterface {
        DBusInterface(OfonoName.manager, methods: [
            DBusMethod("Register", in: "oay") { [weak self] call in
                guard let self, let sender = call.sender, let path = call.arguments[0].string else { return [] }
                let codecs = call.arguments[1].byteArray ?? []
                guard codecs.contains(1) else { throw DBusError.invalidArgs("the agent must support CVSD (codec 1)") }
                // The agent counts once our reply is on its way: the sound server ignores
                // CardAdded until it has that reply, so a card announced before it is not "shown".
                ofono.connection.afterDispatch { self.state.withLock { $0.agent = (sender, path) } }
                logger.info("sound server registered its hands-free agent", metadata: ["owner": "\(sender)", "codecs": "\(codecs)"])
                return []
            },
            DBusMethod("Unregister", in: "o") { [weak self] _ in
                self?.state.withLock { $0.agent = nil }
                return []
            },
            DBusMethod("GetCards", out: "a(oa{sv})") { [weak self] _ in
                guard let self else { return [] }
                // A card this agent already heard of (CardAdded since it registered) is not
                // listed again: PulseAudio would take it for a second card and abort.
                let visible = state.withLock { state in
                    guard state.cardVisible(offersMedia: glasses.offersMedia), !state.cardShown else { return false }
                    state.cardShown = true
                    return true
                }
                if visible { handsFreeLinkCameUp() }
                let cards = visible ? [DBusValue.structure([.objectPath(cardPath), .properties(cardProperties)])] : []
                return [.array(elementSignature: "(oa{sv})", cards)]
            },
        ])
    }

    /// The card's properties; the sound server drops a card whose values are not strings.
    var cardProperties: [String: DBusValue] {
        ["RemoteAddress": .string(glasses.address), "LocalAddress": .string(Self.adapterAddress), "Type": .string("gateway")]
    }

    func cardInterface() -> DBusInterface {
        DBusInterface(OfonoName.card, methods: [
            DBusMethod("GetProperties", out: "a{sv}") { [weak self] _ in [.properties(self?.cardProperties ?? [:])] },
            DBusMethod("Acquire", out: "hy") { [weak self] _ in
                guard let self else { return [] }
                let link = try openVoiceLink()
                ofono.connection.afterDispatch { link.handedOver() }
                return [.unixFD(link.theirs), .byte(1)]
            },
            DBusMethod("Connect") { [weak self] _ in
                // oFono before 1.21: reply, then hand the link to the agent.
                guard let self else { return [] }
                ofono.connection.afterDispatch { self.tasks.start { await self.connectVoiceThroughAgent() } }
                return []
            },
        ])
    }

    /// Once the card is visible (see ``EmulatorState/cardVisible(offersMedia:)``) and an agent
    /// is registered, oFono says so (CardAdded); an agent that registers later finds the card
    /// with GetCards. Never both: BlueALSA takes a CardAdded it heard before registering as a
    /// card, and the same card from GetCards as a second one, which breaks its first.
    func announceCardIfDue() throws {
        let due = state.withLock { state in
            guard state.agent != nil, state.cardVisible(offersMedia: glasses.offersMedia), !state.cardShown else { return false }
            state.cardShown = true
            return true
        }
        guard due else { return }
        logger.info("hands-free card announced", metadata: ["card": "\(cardPath)"])
        try ofono.emit("/", OfonoName.manager, "CardAdded", [.objectPath(cardPath), .properties(cardProperties)])
        handsFreeLinkCameUp()
    }

    /// Opens the voice link (SCO, CVSD), replacing an open one.
    private func openVoiceLink() throws -> SCOLink {
        guard isConnected else { throw DBusError("org.ofono.Error.NotAvailable", "the glasses are not connected") }
        let link = try SCOLink(audio: audio) { [weak self] in
            self?.logger.info("voice link closed by the sound server", metadata: ["card": "\(self?.cardPath ?? "")"])
        }
        let previous = state.withLock { state in
            defer {
                state.sco = link
                state.statistics.voiceAcquisitions += 1
            }
            return state.sco
        }
        previous?.stop()
        link.start(name: "sco")
        logger.info("voice link opened (CVSD, 8 kHz)", metadata: ["card": "\(cardPath)"])
        return link
    }

    /// The glasses open the voice link themselves (a button press, a call answered on them):
    /// oFono hands it to the agent with `NewConnection` without being asked. BlueALSA 4.0 then
    /// finds a live link when its SCO PCM is opened, instead of asking for one (`Connect`),
    /// which races its own SCO threads (see docs/bluealsa.md). Returns once the agent took it.
    public func openVoiceLinkFromGlasses() async throws {
        guard isConnected else { throw EmulatorError.invalid("the glasses are not connected") }
        guard state.withLock({ $0.agent }) != nil else { throw EmulatorError.invalid("no hands-free agent is registered") }
        await connectVoiceThroughAgent()
    }

    private func connectVoiceThroughAgent() async {
        guard let agent = state.withLock({ $0.agent }) else { return }
        do {
            let link = try openVoiceLink()
            defer { link.handedOver() }
            _ = try await ofono.connection.call(
                agent.owner, agent.path, OfonoName.agent, "NewConnection", [.objectPath(cardPath), .unixFD(link.theirs), .byte(1)])
        } catch {
            logger.error("cannot hand the voice link to the agent: \(error)")
        }
    }
}
