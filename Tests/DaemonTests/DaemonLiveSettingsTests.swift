import AudioCore
import Foundation
import Testing
import TestKit

extension DaemonSuites {
    /// Settings apply as docs/daemon.md promises, without a restart: the name at once, the
    /// voice from the next reply, the wake word from the next Wyoming stream. Each changed through
    /// a real `PUT /api/settings/…` on a running daemon, then seen in what the daemon does.
    @Suite("glasses-audiod applies changed settings while it runs", .serialized)
    struct DaemonLiveSettingsTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

        /// `text` said by the `espeak-ng` command line into a WAV file, with half a second of
        /// silence before and after (as a mic hears a phrase).
        static func spoken(_ text: String, in directory: TemporaryDirectory) throws -> String {
            let speech = try Signals.speech(text, in: directory)
            let pause = [Float](repeating: 0, count: speech.format.sampleRate / 2)
            let path = directory.path(text.replacingOccurrences(of: " ", with: "-") + ".wav")
            try WAVFile.write(AudioBuffer(format: speech.format, samples: pause + speech.samples + pause), to: path, encoding: .s16le)
            return path
        }

        /// One push-to-talk round trip on the local backend, after `change` (a settings route
        /// and its body): the assistant's replies, as the conversation keeps them, and the
        /// seconds the simulated speaker played.
        static func roundTrip(asking question: String, after change: (path: String, body: String)) async throws
            -> (replies: [String], played: Double, pitch: Double?)
        {
            let directory = TemporaryDirectory()
            let speaker = directory.path("speaker.wav")
            let daemon = try await DaemonProcess.start(
                dataDirectory: directory.path("data"),
                arguments: ["--assistant-backend", "local", "--mic", try spoken(question, in: directory), "--mic-mode", "once", "--speaker-out", speaker])
            let changed = try await daemon.request("PUT", change.path, body: change.body)
            #expect(changed.status == 200, "\(changed.body)")
            let listen = try await daemon.request("POST", "/api/listen")
            #expect(listen.status == 202, "\(listen.body)")
            // Up to a minute: a reply at 80 words per minute plays for several seconds.
            let released = try await offCooperativePool {
                Poll.until({ daemon.child.stderrSoFar.contains("routeReleased") }, attempts: 1200)
            }
            let conversation = try await daemon.request("GET", "/api/conversation")
            let stopped = try await daemon.stop()
            #expect(released, "the round trip did not end: \(stopped.stderr)")
            #expect(stopped.status == 0, "\(stopped.stderr)")
            let replies = conversation.jsonArray.filter { $0["role"] as? String == "assistant" }.compactMap { $0["content"] as? String }
            let played = try AudioFileReader.read(speaker)
            return (replies, played.duration, medianPitch(of: ChannelMixer.mixdownToMono(played)))
        }

        /// The median fundamental frequency (Hz) of the voiced 40 ms frames of `audio` (mono):
        /// the lag in 60...400 Hz where a frame's normalised autocorrelation peaks, kept where
        /// that peak is above 0.5; nil with no voiced frame.
        static func medianPitch(of audio: AudioBuffer) -> Double? {
            let rate = audio.format.sampleRate
            let frame = rate / 25
            let lags = (rate / 400)...(rate / 60)
            var pitches: [Double] = []
            var start = 0
            while start + frame + lags.upperBound <= audio.samples.count {
                let window = Array(audio.samples[start..<(start + frame + lags.upperBound)])
                start += frame
                let energy = window[0..<frame].reduce(0) { $0 + $1 * $1 }
                guard energy / Float(frame) > 1e-4 else { continue }
                var best = (lag: 0, score: Float(0))
                for lag in lags {
                    var product: Float = 0
                    var lagged: Float = 0
                    for index in 0..<frame {
                        product += window[index] * window[index + lag]
                        lagged += window[index + lag] * window[index + lag]
                    }
                    let score = product / max(1e-9, (energy * lagged).squareRoot())
                    if score > best.score { best = (lag, score) }
                }
                if best.score > 0.5 { pitches.append(Double(rate) / Double(best.lag)) }
            }
            guard !pitches.isEmpty else { return nil }
            return pitches.sorted()[pitches.count / 2]
        }

        @Test("a new name applies at once: asked its name right after the change, the local backend says the new one")
        func nameAppliesAtOnce() async throws {
            let (replies, _, _) = try await Self.roundTrip(asking: "what is your name", after: ("/api/settings/name", #"{"name": "Jarvis"}"#))
            #expect(replies.contains { $0.hasPrefix("I am Jarvis.") }, "\(replies)")
        }

        @Test("a new voice applies without a restart: the same reply at 450 words per minute plays in well under half the time of 80")
        func voiceAppliesWithoutRestart() async throws {
            let fast = try await Self.roundTrip(asking: "what is your name", after: ("/api/settings/voice", #"{"rate": 450}"#))
            let slow = try await Self.roundTrip(asking: "what is your name", after: ("/api/settings/voice", #"{"rate": 80}"#))
            #expect(fast.replies == slow.replies && fast.replies.count == 1, "\(fast.replies) \(slow.replies)")
            #expect(fast.played > 0.3 && fast.played * 2 < slow.played, "played \(fast.played) s at 450 wpm, \(slow.played) s at 80 wpm")
        }

        @Test("a new pitch applies from the next reply: the same reply at pitch 90 is spoken clearly higher than at 10")
        func pitchAppliesFromTheNextReply() async throws {
            let low = try await Self.roundTrip(asking: "what is your name", after: ("/api/settings/voice", #"{"pitch": 10}"#))
            let high = try await Self.roundTrip(asking: "what is your name", after: ("/api/settings/voice", #"{"pitch": 90}"#))
            #expect(low.replies == high.replies && low.replies.count == 1, "\(low.replies) \(high.replies)")
            let (lowPitch, highPitch) = (try #require(low.pitch), try #require(high.pitch))
            #expect(highPitch > lowPitch * 1.25, "median pitch \(lowPitch) Hz at pitch 10, \(highPitch) Hz at pitch 90")
        }

        /// "hey jarvis" has openWakeWord's community head (installed by scripts/bootstrap), so its
        /// engine loads in a moment; a phrase new to dtw trains its classifier in the first stream
        /// that runs it (minutes on a busy 2-core machine).
        @Test("a new wake word reaches the Wyoming wake-word service without a restart: listed by describe and detected")
        func wakeWordReachesWyoming() async throws {
            let directory = TemporaryDirectory()
            let daemon = try await DaemonProcess.start(dataDirectory: directory.path("data"))
            let changed = try await daemon.request("PUT", "/api/settings/wake-word", body: #"{"keyword": "hey jarvis", "sensitivity": 0.5}"#)
            #expect(changed.status == 200, "\(changed.body)")
            let marker = "wyoming: listening on 127.0.0.1:"
            let tail = try #require(daemon.child.stderrSoFar.components(separatedBy: marker).dropFirst().first, "\(daemon.child.stderrSoFar)")
            let port = try #require(Int(tail.prefix { $0.isNumber }))
            let phrase = try Self.spoken("hey jarvis", in: directory)
            let client = try await offCooperativePool {
                try Run.command(Self.root + "/scripts/wyoming-peer", ["wake_client.py", "127.0.0.1", "\(port)", phrase])
            }
            let stopped = try await daemon.stop()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            try #require(client.status == 0, "\(client.stderr)")
            let line = try #require(client.stdout.split(separator: "\n").last.map(String.init))
            let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(client.stdout)")
            #expect(result["wake_models"] as? [String] == ["hey_jarvis"], "\(result)")
            let names = (result["detections"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names.first == "hey_jarvis", "\(result)")
        }
    }
}
