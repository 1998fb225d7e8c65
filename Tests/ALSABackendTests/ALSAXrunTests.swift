@testable import ALSABackend
import AudioCore
import Foundation
import Synchronization
import Testing
import TestKit

@Suite("ALSA xruns: recovered and reported", .oneAtATime, .serialized)
struct ALSAXrunTests {
    final class Seen: Sendable {
        let events = Mutex<[ALSAStreamEvent]>([])
        func append(_ event: ALSAStreamEvent) { events.withLock { $0.append(event) } }
        var all: [ALSAStreamEvent] { events.withLock { $0 } }
    }

    @Test("a playback whose writer stalls underruns; the next write recovers (snd_pcm_recover), goes on, and reports it")
    func underrun() throws {
        let daemon = try PulseDaemon(modules: ["load-module module-null-sink sink_name=room rate=16000 channels=1"])
        // The pulse plugin reports an underrun only when asked to (handle_underrun).
        let config = try ALSATestConfig("pcm.room { type pulse server \"\(daemon.server)\" device \"room\" handle_underrun true }\n")
        let seen = Seen()
        let format = PCMFormat(sampleRate: 16000, channels: 1)
        let pcm = try ALSAPCM(
            name: "room", direction: .playback, format: format, buffer: ALSABufferSettings(period: .milliseconds(10), buffer: .milliseconds(40)),
            configuration: try ALSAConfigTree(files: config.files), onEvent: seen.append)
        let tone = Signals.sine(frequency: 440, rate: 16000, seconds: 0.1).samples
        try pcm.write(tone)
        // The writer stalls until libasound says the buffer ran dry (set-up, not a timing
        // assertion). The pulse plugin learns of it from the server's underflow notice, which
        // took over 10 s once with the machine 12 deep: the guard is a minute.
        #expect(Poll.until({ pcm.available() < 0 }, attempts: 1200), "the PCM never underran: avail \(pcm.available())")
        try pcm.write(tone)
        // The stall's underrun is reported and recovered; on a loaded machine the second write
        // (0.1 s through a 40 ms buffer) may run dry again, and each such one is reported too.
        #expect(!seen.all.isEmpty)
        #expect(seen.all.allSatisfy { $0 == .xrunRecovered(pcm: "room", direction: .playback, error: "Broken pipe") }, "\(seen.all)")
        #expect(seen.all.first?.description == "underrun on room (Broken pipe), recovered")
    }
}
