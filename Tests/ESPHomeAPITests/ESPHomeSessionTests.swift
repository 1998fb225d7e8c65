import ESPHomeAPI
import TestKit
import Testing

@Suite("ESPHome session machine", .oneAtATime)
struct ESPHomeSessionTests {
    let device = ESPHomeDevice.withSeed([0x11, 0x22, 0x33, 0x44, 0x55, 0x66], friendlyName: "My glasses")

    private func sent(_ actions: [ESPHomeSessionAction]) -> [ESPHomeFrame] {
        actions.compactMap { if case .send(let frame) = $0 { frame } else { nil } }
    }

    private func connected(encrypted: Bool = false) throws -> ESPHomeSession {
        var session = ESPHomeSession(device: device, encrypted: encrypted)
        var hello = ESPHomeHelloRequest()
        hello.clientInfo = "Home Assistant"
        hello.apiVersionMajor = 1
        hello.apiVersionMinor = 19
        _ = session.receive(try hello.frame())
        return session
    }

    @Test func theDeviceIdIsAStableLocallyAdministeredMAC() {
        #expect(device.mac == [0x12, 0x22, 0x33, 0x44, 0x55, 0x66])
        #expect(device.macAddress == "12:22:33:44:55:66")
        #expect(device.macHex == "122233445566")
        #expect(device.name == "glasses-445566")
        #expect(ESPHomeDevice.nodeName("Ray Ban_Meta!") == "ray-ban-meta-")
    }

    @Test func helloIsAnsweredWithTheVersionAndTheNodeName() throws {
        var session = ESPHomeSession(device: device, encrypted: false)
        var hello = ESPHomeHelloRequest()
        hello.clientInfo = "aioesphomeapi"
        hello.apiVersionMajor = 1
        hello.apiVersionMinor = 19
        let actions = session.receive(try hello.frame()) + session.receive(try ESPHomeAuthenticationRequest().frame())
        let frames = sent(actions)
        #expect(frames.count == 1, "only the hello is answered: a password-less device sends no authentication response")
        let response = try ESPHomeHelloResponse(frame: try #require(frames.first))
        #expect(frames.first?.type == .helloResponse)
        #expect(response.apiVersionMajor == 1)
        #expect(response.apiVersionMinor == 13)
        #expect(response.name == "glasses-445566")
        #expect(response.serverInfo.utf8.count <= 32)
        #expect(session.phase == .connected)
        #expect(session.clientInfo == "aioesphomeapi")
    }

    @Test func deviceInfoNamesTheGlassesAsAVoiceSatellite() throws {
        for encrypted in [false, true] {
            var session = try connected(encrypted: encrypted)
            let frames = sent(session.receive(try ESPHomeDeviceInfoRequest().frame()))
            #expect(frames.map(\.type) == [.deviceInfoResponse])
            let info = try ESPHomeDeviceInfoResponse(frame: frames[0])
            #expect(info.name == "glasses-445566")
            #expect(info.friendlyName == "My glasses")
            #expect(info.macAddress == "12:22:33:44:55:66")
            #expect(info.usesPassword == false)
            #expect(info.manufacturer == "GlassesAudio")
            #expect(info.voiceAssistantFeatureFlags == 61, "voice assistant, API audio, timers, announce, start conversation; not speaker")
            #expect(info.apiEncryptionSupported == encrypted, "on plaintext HA would try to set a key")
            #expect(info.projectName.isEmpty || info.projectName.contains("."))
        }
    }

    @Test func entitiesAreTheSpeakerAndTheMuteSwitchThenDone() throws {
        var session = try connected()
        let frames = sent(session.receive(try ESPHomeListEntitiesRequest().frame()))
        #expect(frames.map(\.type) == [.listEntitiesMediaPlayerResponse, .listEntitiesSwitchResponse, .listEntitiesDoneResponse])
        let speaker = try ESPHomeListEntitiesMediaPlayerResponse(frame: frames[0])
        #expect(speaker.key == ESPHomeEntities.speakerKey)
        #expect(speaker.key != 0)
        let announcementFormats = speaker.supportedFormats.filter { $0.purpose == .announcement }.map(\.format)
        #expect(announcementFormats == ["flac", "wav"])
        let mute = try ESPHomeListEntitiesSwitchResponse(frame: frames[1])
        #expect(mute.name == "Mute microphone")
        #expect(mute.key == ESPHomeEntities.muteKey)
        #expect(mute.key != speaker.key)
    }

    @Test func statesAreSentOnSubscribeAndPushedOnChange() throws {
        var session = try connected()
        #expect(session.update(ESPHomeDeviceState(microphoneMuted: true)).isEmpty, "not subscribed: nothing pushed")
        let initial = sent(session.receive(try ESPHomeSubscribeStatesRequest().frame()))
        #expect(initial.map(\.type) == [.mediaPlayerStateResponse, .switchStateResponse])
        #expect(try ESPHomeSwitchStateResponse(frame: initial[1]).state == true)
        #expect(try ESPHomeMediaPlayerStateResponse(frame: initial[0]).state == .idle)

        var command = ESPHomeSwitchCommandRequest()
        command.key = ESPHomeEntities.muteKey
        command.state = false
        #expect(session.receive(try command.frame()) == [.setMicrophoneMuted(false)])
        let pushed = sent(session.update(ESPHomeDeviceState(microphoneMuted: false)))
        #expect(pushed.map(\.type) == [.switchStateResponse])
        #expect(try ESPHomeSwitchStateResponse(frame: pushed[0]).state == false)
        #expect(session.update(ESPHomeDeviceState(microphoneMuted: false)).isEmpty, "no change, nothing sent")

        command.key = 12345
        let other = session.receive(try command.frame())
        #expect(sent(other).isEmpty)
        #expect(other.count == 1)
    }

    @Test func pingIsAnsweredBeforeAndAfterHello() throws {
        var session = ESPHomeSession(device: device, encrypted: false)
        #expect(sent(session.receive(try ESPHomePingRequest().frame())).map(\.type) == [.pingResponse])
        session = try connected()
        #expect(sent(session.receive(try ESPHomePingRequest().frame())).map(\.type) == [.pingResponse])
    }

    @Test func disconnectIsAnsweredThenClosed() throws {
        var session = try connected()
        let actions = session.receive(try ESPHomeDisconnectRequest().frame())
        #expect(sent(actions).map(\.type) == [.disconnectResponse])
        #expect(actions.last == .close)
        #expect(session.phase == .closed)
        #expect(session.receive(try ESPHomePingRequest().frame()).isEmpty, "nothing after closing")
    }

    @Test func ourDisconnectWaitsForTheClientsAnswer() throws {
        var session = try connected()
        #expect(sent(session.disconnect()).map(\.type) == [.disconnectRequest])
        #expect(session.receive(try ESPHomeDisconnectResponse().frame()) == [.close])
    }

    @Test func unknownTypesAreLoggedAndTheConnectionKept() throws {
        var session = try connected()
        let actions = session.receive(ESPHomeFrame(typeNumber: 250, body: [1, 2, 3]))
        #expect(actions.count == 1)
        guard case .log(_, let line) = actions.first else { Issue.record("expected a log line, got \(actions)"); return }
        #expect(line.contains("250"))
        #expect(session.phase == .connected)
        #expect(sent(session.receive(try ESPHomePingRequest().frame())).map(\.type) == [.pingResponse])
    }

    @Test func aBodyThatDoesNotParseIsLoggedAndTheConnectionKept() throws {
        var session = try connected()
        let actions = session.receive(ESPHomeFrame(.switchCommandRequest, body: [0xFF, 0xFF, 0xFF]))
        #expect(sent(actions).isEmpty)
        #expect(!actions.contains(.close))
        #expect(session.phase == .connected)
    }

    @Test func requestsBeforeHelloCloseTheConnection() throws {
        var session = ESPHomeSession(device: device, encrypted: false)
        let actions = session.receive(try ESPHomeDeviceInfoRequest().frame())
        #expect(sent(actions).isEmpty)
        #expect(actions.last == .close)
        #expect(session.phase == .closed)
    }

    @Test func theWakeWordConfigurationNamesTheOneInForce() throws {
        var session = ESPHomeSession(
            device: device, encrypted: false, state: ESPHomeDeviceState(wakeWord: ESPHomeWakeWordOption(id: "hey_glasses", phrase: "hey glasses")))
        var hello = ESPHomeHelloRequest()
        hello.clientInfo = "HA"
        _ = session.receive(try hello.frame())
        let frames = sent(session.receive(try ESPHomeVoiceAssistantConfigurationRequest().frame()))
        #expect(frames.map(\.type) == [.voiceAssistantConfigurationResponse])
        let configuration = try ESPHomeVoiceAssistantConfigurationResponse(frame: frames[0])
        #expect(configuration.availableWakeWords.map(\.id) == ["hey_glasses"])
        #expect(configuration.availableWakeWords.map(\.wakeWord) == ["hey glasses"])
        #expect(configuration.activeWakeWords == ["hey_glasses"])
        #expect(configuration.maxActiveWakeWords == 1)
    }

    @Test func theWakeWordsOfferedAreListedAndOneOfThemIsChosen() throws {
        let glasses = ESPHomeWakeWordOption(id: "hey_glasses", phrase: "hey glasses")
        let jarvis = ESPHomeWakeWordOption(id: "hey_jarvis", phrase: "hey jarvis")
        var session = ESPHomeSession(device: device, encrypted: false, state: ESPHomeDeviceState(wakeWord: glasses, availableWakeWords: [glasses, jarvis]))
        _ = session.receive(try ESPHomeHelloRequest().frame())
        let frames = sent(session.receive(try ESPHomeVoiceAssistantConfigurationRequest().frame()))
        let configuration = try ESPHomeVoiceAssistantConfigurationResponse(frame: try #require(frames.first))
        #expect(configuration.availableWakeWords.map(\.id) == ["hey_glasses", "hey_jarvis"])
        #expect(configuration.availableWakeWords.map(\.wakeWord) == ["hey glasses", "hey jarvis"])
        #expect(configuration.activeWakeWords == ["hey_glasses"])

        var choice = ESPHomeVoiceAssistantSetConfiguration()
        choice.activeWakeWords = ["hey_jarvis"]
        let chosen = session.receive(try choice.frame())
        #expect(chosen.contains(.setWakeWord(jarvis)), "\(chosen)")
        #expect(sent(chosen).isEmpty)
        // Unknown, none, or the one in force: nothing changes, and the log says why.
        for ids in [["ok_nabu"], [], ["hey_glasses"]] {
            choice.activeWakeWords = ids
            let kept = session.receive(try choice.frame())
            #expect(!kept.contains { if case .setWakeWord = $0 { true } else { false } }, "\(ids): \(kept)")
            #expect(kept.contains { if case .log = $0 { true } else { false } }, "\(ids): \(kept)")
            #expect(!kept.contains(.close))
        }
        #expect(
            ESPHomeWakeWordChoice.decide(["ok_nabu"], in: session.state)
                == .keep(reason: "the wake word 'ok_nabu' is not one the glasses offer (hey_glasses, hey_jarvis): 'hey glasses' stays"))
    }

    @Test func aWakeWordInForceThatIsNotOfferedIsListedToo() {
        let spoken = ESPHomeWakeWordOption(id: "hello_there", phrase: "hello there")
        let glasses = ESPHomeWakeWordOption(id: "hey_glasses", phrase: "hey glasses")
        let state = ESPHomeDeviceState(wakeWord: spoken, availableWakeWords: [glasses])
        #expect(ESPHomeWakeWordChoice.listed(in: state) == [spoken, glasses])
        #expect(ESPHomeWakeWordChoice.decide(["hey_glasses"], in: state) == .choose(glasses))
    }

    @Test func anAnnouncementGoesToTheVoiceSide() throws {
        var session = try connected()
        var announce = ESPHomeVoiceAssistantAnnounceRequest()
        announce.mediaID = "http://ha/tts.flac"
        announce.startConversation = true
        let actions = session.receive(try announce.frame())
        #expect(sent(actions).isEmpty, "AnnounceFinished comes when it has been played")
        #expect(actions.contains(.voice(.announce(announce))))
        #expect(!actions.contains(.close))
    }

    @Test func theVoiceSubscriptionIsKept() throws {
        var session = try connected()
        var subscribe = ESPHomeSubscribeVoiceAssistantRequest()
        subscribe.subscribe = true
        subscribe.flags = 4
        _ = session.receive(try subscribe.frame())
        #expect(session.subscribedToVoice)
        subscribe.subscribe = false
        _ = session.receive(try subscribe.frame())
        #expect(!session.subscribedToVoice)
    }
}
