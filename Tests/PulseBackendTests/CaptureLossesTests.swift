import AudioCore
import Foundation
@testable import PulseBackend
import Synchronization
import Testing
import TestKit

extension PulseBackendIntegrationTests {
    @Test("a capture's account is said when it ends: the audio it received, nothing lost",
          arguments: SoundServerKind.available)
    func captureAccount(_ kind: SoundServerKind) async throws {
        let daemon = try kind.start(modules: [
            "load-module module-null-sink sink_name=speaker rate=16000 channels=1 format=float32le",
        ])
        let notes = HeardNotes()
        let backend = try await PulseAudioBackend.connect(server: daemon.server, streamNotes: { notes.add($0) })
        try await withTeardown({ await backend.shutdown() }) {
            let format = PCMFormat(sampleRate: 16000, channels: 1)
            var read = 0
            do {
                let frames = try await backend.openCapture(source: "speaker.monitor", format: format)
                for try await frame in frames {
                    read += frame.buffer.samples.count
                    if read >= 8000 { break }  // half a second of the monitor's silence
                }
            }
            // The stream let go (its reader is gone): its account comes from the mainloop.
            let said = try await notes.first { $0.hasPrefix("capture from speaker.monitor ended: ") }
            #expect(said.hasSuffix(" s of audio received, nothing lost"), "\(said)")
            let seconds = Double(said.split(separator: " ")[4]) ?? 0
            #expect(seconds >= 0.49, "\(said) (read \(read) samples)")
            #expect(notes.all.count == 1, "\(notes.all)")
        }
    }
}

/// What a backend's `streamNotes` said, in order.
final class HeardNotes: Sendable {
    private let lines = Mutex<[String]>([])

    func add(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }

    /// The first note `matching` accepts (looked at every 50 ms, for up to 20 s).
    func first(_ matching: (String) -> Bool) async throws -> String {
        for _ in 0..<400 {
            if let found = all.first(where: matching) { return found }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("no such note; heard: \(all)")
    }
}

@Suite("A capture's losses, counted and said (pure)", .oneAtATime)
struct CaptureLossesTests {
    @Test("holes the server left and frames dropped here: the first of each is said, the account counts all")
    func counts() {
        var losses = CaptureLosses(source: "bluez_input.glasses", sampleRate: 8000, channels: 1)
        losses.received(8000)
        #expect(losses.summary == "capture from bluez_input.glasses ended: 1.00 s of audio received, nothing lost")
        #expect(losses.hole(400) == "capture from bluez_input.glasses: the server dropped 0.05 s of audio before we read it (a hole; counted until the capture ends)")
        #expect(losses.hole(800) == nil)
        #expect(losses.dropped(160) == "capture from bluez_input.glasses: the reader fell behind and 0.02 s of audio was dropped here (counted until the capture ends)")
        #expect(losses.dropped(160) == nil)
        losses.received(4000)
        #expect(losses.summary == "capture from bluez_input.glasses ended: 1.50 s of audio received; lost: 0.15 s in 2 hole(s) the server left, 0.04 s in 2 frame(s) dropped here")
    }
}
