@testable import ALSABackend
import Routing
import TestKit
import Testing

@Suite("Which ALSA PCMs are endpoints (pure)", .oneAtATime)
struct ALSAEndpointCatalogTests {
    let card = ALSACard(index: 0, id: "Device", name: "USB Audio Device", devices: [
        .init(number: 0, name: "USB Audio", playback: true, capture: true),
        .init(number: 1, name: "Digital out", playback: true, capture: false),
    ])
    let system = ["default", "pulse", "lavrate", "speexrate", "samplerate", "dmix", "dsnoop", "front", "surround51", "null", "hw", "plughw", "jack"]
        .map { ALSAPCMDefinition(name: $0, userDefined: false) }

    @Test("each card device gives hw: and plughw: endpoints in the directions it offers")
    func cards() {
        let endpoints = ALSAEndpointCatalog.endpoints(cards: [card], definitions: [])
        let names = endpoints.map { "\($0.direction.rawValue) \($0.name)" }
        #expect(names == [
            "sink hw:CARD=Device,DEV=0", "sink hw:CARD=Device,DEV=1", "sink plughw:CARD=Device,DEV=0", "sink plughw:CARD=Device,DEV=1",
            "source hw:CARD=Device,DEV=0", "source plughw:CARD=Device,DEV=0",
        ])
        #expect(endpoints.first?.description == "USB Audio Device, USB Audio (direct)")
    }

    @Test("rate converters and internals are not endpoints; default and pulse are")
    func internals() {
        let names = Set(ALSAEndpointCatalog.endpoints(cards: [], definitions: system).map(\.name))
        #expect(names == ["default", "pulse"])
    }

    @Test("the user's PCMs are endpoints, one way when their hint says so")
    func userDefined() {
        let mine = [
            ALSAPCMDefinition(name: "glasses_mic", type: "dsnoop", description: "Glasses mic", ioid: "Input", userDefined: true),
            ALSAPCMDefinition(name: "recorder", type: "file", userDefined: true),
        ]
        let endpoints = ALSAEndpointCatalog.endpoints(cards: [], definitions: system + mine)
        #expect(endpoints.filter { $0.name == "glasses_mic" }.map(\.direction) == [.source])
        #expect(endpoints.first { $0.name == "glasses_mic" }?.description == "Glasses mic")
        #expect(endpoints.filter { $0.name == "recorder" }.map(\.direction) == [.sink, .source])
    }

    @Test("changes: departures first, then arrivals; nothing for an unchanged listing")
    func changes() {
        let before = ALSAEndpointCatalog.endpoints(cards: [card], definitions: system)
        let after = ALSAEndpointCatalog.endpoints(cards: [], definitions: system + [ALSAPCMDefinition(name: "mine", ioid: "Output", userDefined: true)])
        let events = ALSAEndpointCatalog.changes(from: before, to: after)
        #expect(events.count == 7)
        #expect(events.prefix(6).allSatisfy { if case .endpointGone = $0 { true } else { false } })
        #expect(events.last == .endpointAppeared(after.first { $0.name == "mine" }!))
        #expect(ALSAEndpointCatalog.changes(from: after, to: after).isEmpty)
    }

    @Test("buffer settings: frames at a rate, and sizes that cannot work are refused with what is accepted")
    func bufferSettings() throws {
        let voice = ALSABufferSettings.voice
        #expect(voice.periodFrames(rate: 16000) == 320)
        #expect(voice.bufferFrames(rate: 16000) == 1280)
        #expect(throws: ALSASettingsError.self) { try ALSABufferSettings(period: .milliseconds(20), buffer: .milliseconds(30)).validate() }
        do {
            try ALSABufferSettings(period: .microseconds(10), buffer: .milliseconds(30)).validate()
            Issue.record("a 10 µs period was accepted")
        } catch {
            #expect(error.description.contains("1 ms…1 s"))
        }
    }
}
