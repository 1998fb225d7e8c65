import ESPHomeAPI
import TestKit
import Testing

@Suite("ESPHome voice run machine", .oneAtATime)
struct ESPHomeVoiceRunTests {
    private func event(_ type: ESPHomeVoiceAssistantEvent, _ data: [String: String] = [:]) -> ESPHomeVoiceAssistantEventResponse {
        var event = ESPHomeVoiceAssistantEventResponse()
        event.eventType = type
        event.data = data.sorted { $0.key < $1.key }.map { name, value in
            var item = ESPHomeVoiceAssistantEventData()
            item.name = name
            item.value = value
            return item
        }
        return event
    }

    @Test func homeAssistantsEventsMakeTheReply() {
        var run = ESPHomeVoiceRun()
        #expect(run.responded(port: 0, error: false).isEmpty)
        #expect(run.received(event(.voiceAssistantRunStart, ["url": "http://ha/stream.flac"])).isEmpty)
        #expect(run.received(event(.voiceAssistantSttStart)).isEmpty)
        #expect(run.received(event(.voiceAssistantSttVadStart)).isEmpty)
        #expect(run.streaming)
        #expect(run.received(event(.voiceAssistantSttVadEnd)) == [.stopStreaming])
        #expect(!run.streaming)
        #expect(run.received(event(.voiceAssistantSttEnd, ["text": "what time is it"])).isEmpty, "the stream stopped once")
        #expect(run.received(event(.voiceAssistantIntentStart)).isEmpty)
        #expect(run.received(event(.voiceAssistantIntentEnd, ["conversation_id": "c1", "continue_conversation": "1"])).isEmpty)
        #expect(run.received(event(.voiceAssistantTtsStart, ["text": "It is noon."])).isEmpty)
        let reply = ESPHomeVoiceReply(
            heard: "what time is it", answer: "It is noon.", ttsURL: "http://ha:8123/api/tts_proxy/x.flac", conversationID: "c1",
            continueConversation: true)
        #expect(run.received(event(.voiceAssistantTtsEnd, ["url": "http://ha:8123/api/tts_proxy/x.flac"])) == [.reply(reply)])
        #expect(run.finished)
        #expect(run.received(event(.voiceAssistantRunEnd)).isEmpty, "RUN_END after the reply adds nothing")
    }

    @Test func sttEndStopsTheStreamWhenNoVADEndCame() {
        var run = ESPHomeVoiceRun()
        #expect(run.received(event(.voiceAssistantSttEnd, ["text": "hello"])) == [.stopStreaming])
        #expect(run.received(event(.voiceAssistantRunEnd)) == [.reply(ESPHomeVoiceReply(heard: "hello"))], "no TTS: an empty answer")
    }

    @Test func anErrorFailsTheRunOnce() {
        var run = ESPHomeVoiceRun()
        #expect(
            run.received(event(.voiceAssistantError, ["code": "stt-no-text-recognized", "message": "No text recognized"]))
                == [.stopStreaming, .fail("stt-no-text-recognized: No text recognized")])
        #expect(run.received(event(.voiceAssistantRunEnd)).isEmpty)
    }

    @Test func aPipelineThatCannotStartOrWantsUDPFails() {
        var refused = ESPHomeVoiceRun()
        #expect(refused.responded(port: 0, error: true) == [.stopStreaming, .fail("Home Assistant could not start its voice pipeline")])
        var udp = ESPHomeVoiceRun()
        #expect(udp.responded(port: 6055, error: false).last == .fail("Home Assistant asked for the audio over UDP port 6055; this device sends it over the API"))
    }

    @Test func theSessionHandsVoiceMessagesOn() throws {
        var session = ESPHomeSession(device: ESPHomeDevice.withSeed([1, 2, 3, 4, 5, 6], friendlyName: "G"), encrypted: false)
        var hello = ESPHomeHelloRequest()
        hello.clientInfo = "Home Assistant"
        _ = session.receive(try hello.frame())
        var subscribe = ESPHomeSubscribeVoiceAssistantRequest()
        subscribe.subscribe = true
        #expect(session.receive(try subscribe.frame()).contains(.voiceSubscribed(true)))
        var response = ESPHomeVoiceAssistantResponse()
        response.error = true
        #expect(session.receive(try response.frame()) == [.voice(.response(port: 0, error: true))])
        let end = event(.voiceAssistantSttEnd, ["text": "hi"])
        #expect(session.receive(try end.frame()).contains(.voice(.event(end))))
        var timer = ESPHomeVoiceAssistantTimerEventResponse()
        timer.eventType = .voiceAssistantTimerFinished
        timer.timerID = "t1"
        #expect(session.receive(try timer.frame()).contains(.voice(.timer(timer))))
    }
}
