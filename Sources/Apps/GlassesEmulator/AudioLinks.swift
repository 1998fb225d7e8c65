import AudioCore
import Foundation
import Synchronization

/// Where a link's audio comes from and goes: the glasses' mic (mono, at the link's rate) and
/// what their speakers played, per link.
public final class EmulatedAudio: Sendable {
    private struct State {
        var mic: MicFeed
        var voiceSpeaker: [Float] = []
        /// What the mic sent over the voice link (the signal and the echo path's echo).
        var voiceMic: [Float] = []
        var mediaSpeaker: [Float] = []
        var mediaFormat = (rate: 44100, channels: 2)
        var echo: EchoPath?
        var talkOver: TalkOver?
    }

    /// A phrase waiting for the voice link's speaker to sound: the user talking over a reply.
    private struct TalkOver {
        let signal: AudioBuffer
        var loudSamples = 0
        /// 20 ms at 8 kHz above −30 dBFS: the reply has begun to sound.
        static let soundAfter = 160
        static let loud: Float = 0.03
    }

    private let state: Mutex<State>

    public init(mic: MicFeed = .silence(rate: 8000)) { state = Mutex(State(mic: mic)) }

    /// Replaces the mic signal (resampled to the voice link's 8 kHz, mono).
    public func setMic(_ buffer: AudioBuffer, loop: Bool) throws {
        let voice = try Resampler.resample(ChannelMixer.mixdownToMono(buffer), to: 8000)
        state.withLock { $0.mic = MicFeed(signal: voice, mode: loop ? .loop : .once) }
    }

    /// The user talks over the reply: the mic says `buffer` once (resampled to the voice link's
    /// 8 kHz, mono), starting as soon as the voice link's speaker has played 20 ms of sound
    /// above −30 dBFS. It is cued on the link's own thread, at the packet that carried the
    /// sound, so a busy process cannot move the phrase later into (or past) the reply.
    public func talkOverTheNextReply(_ buffer: AudioBuffer) throws {
        let voice = try Resampler.resample(ChannelMixer.mixdownToMono(buffer), to: 8000)
        state.withLock { $0.talkOver = TalkOver(signal: voice) }
    }

    /// Whether a phrase given to `talkOverTheNextReply` is still waiting for the reply's sound.
    public var isWaitingToTalkOver: Bool { state.withLock { $0.talkOver != nil } }

    func readMic(_ count: Int) -> [Float] {
        state.withLock { state in
            var mic = state.mic.read(count)
            if state.echo != nil { mic = zip(mic, state.echo!.read(count)).map { $0 + $1 } }
            Self.append(mic, to: &state.voiceMic, limit: Self.speakerSeconds * 8000)
            return mic
        }
    }

    /// The acoustic path from the glasses' speaker to their mic, as on real glasses: what the
    /// voice link plays comes back into the mic `gainDB` (negative: attenuated) and `delay`
    /// later. `nil` turns it off.
    public func setEchoPath(gainDB: Double?, delay: Duration = .milliseconds(20)) {
        state.withLock { $0.echo = gainDB.map { EchoPath(gainDB: $0, delay: delay, rate: 8000) } }
    }

    /// How much of each speaker recording is kept: the latest 10 minutes, so an emulator left
    /// running for hours does not grow without end (media at 44.1 kHz stereo is 1.3 GB an hour).
    public static let speakerSeconds = 600

    func appendVoiceSpeaker(_ samples: [Float]) {
        state.withLock {
            Self.append(samples, to: &$0.voiceSpeaker, limit: Self.speakerSeconds * 8000)
            $0.echo?.played(samples)
            if var cue = $0.talkOver {
                cue.loudSamples += samples.lazy.filter { abs($0) > TalkOver.loud }.count
                if cue.loudSamples >= TalkOver.soundAfter {
                    $0.mic = MicFeed(signal: cue.signal, mode: .once)
                    $0.talkOver = nil
                } else {
                    $0.talkOver = cue
                }
            }
        }
    }

    func appendMediaSpeaker(_ samples: [Float], rate: Int, channels: Int) {
        state.withLock {
            $0.mediaFormat = (rate, channels)
            Self.append(samples, to: &$0.mediaSpeaker, limit: Self.speakerSeconds * rate * channels)
        }
    }

    /// Appends, dropping the oldest samples in batches (a quarter of the limit at a time) so
    /// the 3 ms packets do not each pay for moving the whole recording.
    private static func append(_ samples: [Float], to recording: inout [Float], limit: Int) {
        recording += samples
        if recording.count > limit + limit / 4 { recording.removeFirst(recording.count - limit) }
    }

    /// What the speakers played over the voice link (8 kHz mono CVSD).
    public func voiceSpeaker() -> AudioBuffer {
        state.withLock { AudioBuffer(format: PCMFormat(sampleRate: 8000, channels: 1), samples: $0.voiceSpeaker) }
    }

    /// What the speakers played over A2DP, decoded from SBC.
    public func mediaSpeaker() -> AudioBuffer {
        state.withLock {
            AudioBuffer(format: PCMFormat(sampleRate: $0.mediaFormat.rate, channels: $0.mediaFormat.channels), samples: $0.mediaSpeaker)
        }
    }

    /// What the mic sent over the voice link (8 kHz mono, its echo included), since the speakers
    /// were last cleared.
    public func voiceMic() -> AudioBuffer {
        state.withLock { AudioBuffer(format: PCMFormat(sampleRate: 8000, channels: 1), samples: $0.voiceMic) }
    }

    public func clearSpeakers() {
        state.withLock {
            $0.voiceMic = []
            $0.voiceSpeaker = []
            $0.mediaSpeaker = []
        }
    }
}

/// One end of an emulated radio link: a SOCK_SEQPACKET socket pair whose far end goes to the
/// sound server over D-Bus, and a thread that services our end until either side closes it.
///
/// Unchecked `Sendable`: a non-final base class cannot be checked; its fields are constants, an Atomic and a Mutex.
class AudioLink: @unchecked Sendable {
    let ours: Int32
    /// The descriptor to hand over; closed by `handedOver()` once D-Bus has duplicated it.
    let theirs: Int32
    private let running = Atomic(true)
    private let finished = DispatchSemaphore(value: 0)
    private let counters = Mutex((packetsIn: 0, packetsOut: 0, bytesIn: 0, dropped: 0))
    private let onClosed: @Sendable () -> Void

    init(onClosed: @escaping @Sendable () -> Void) throws {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &ends) == 0 else {
            throw EmulatorError.system("socketpair failed: \(String(cString: strerror(errno)))")
        }
        ours = ends[0]
        theirs = ends[1]
        self.onClosed = onClosed
    }

    var isRunning: Bool { running.load(ordering: .relaxed) }
    var statistics: (packetsIn: Int, packetsOut: Int, bytesIn: Int, dropped: Int) { counters.withLock { $0 } }

    func start(name: String) {
        let thread = Thread { [self] in
            defer { finished.signal() }
            run()
            if running.exchange(false, ordering: .relaxed) { onClosed() }  // the far side ended it
        }
        thread.name = name
        thread.start()
    }

    func handedOver() { close(theirs) }

    /// Ends the link from our side (the far side sees EOF) and waits for the thread.
    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        shutdown(ours, Int32(SHUT_RDWR))
        finished.wait()
        close(ours)
    }

    func run() {}

    func countIn(_ bytes: Int) { counters.withLock { $0.packetsIn += 1; $0.bytesIn += bytes } }
    func countOut() { counters.withLock { $0.packetsOut += 1 } }
    func countDropped() { counters.withLock { $0.dropped += 1 } }

    /// Waits up to `milliseconds` for data on our end; false once the link is closed.
    func waitReadable(milliseconds: Int32) -> Bool {
        var fd = pollfd(fd: ours, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, milliseconds)
        return fd.revents & Int16(POLLHUP | POLLERR) == 0 || fd.revents & Int16(POLLIN) != 0
    }
}

/// The HFP voice link (SCO, CVSD): every 3 ms the glasses send 48 bytes of mic audio (24
/// samples, 8 kHz s16le mono), which also clocks the sound server's writes back to the
/// speakers, as a real SCO link does.
///
/// Unchecked `Sendable`: its own fields are constants; the unchecked base class is what the checker cannot see into.
final class SCOLink: AudioLink, @unchecked Sendable {
    static let packetBytes = 48
    static let period = Duration.milliseconds(3)
    private let audio: EmulatedAudio

    init(audio: EmulatedAudio, onClosed: @escaping @Sendable () -> Void) throws {
        self.audio = audio
        try super.init(onClosed: onClosed)
    }

    override func run() {
        let clock = ContinuousClock()
        var next = clock.now
        var buffer = [UInt8](repeating: 0, count: 1024)
        while isRunning {
            while clock.now >= next {
                let samples = audio.readMic(Self.packetBytes / 2)
                var packet = [UInt8]()
                packet.reserveCapacity(Self.packetBytes)
                for sample in samples {
                    let value = UInt16(bitPattern: Int16(max(-32768, min(32767, (sample * 32768).rounded()))))
                    packet.append(UInt8(value & 0xff))
                    packet.append(UInt8(value >> 8))
                }
                let sent = send(ours, packet, packet.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK { return }
                if sent > 0 { countOut() } else { countDropped() }  // a full socket drops the packet, as the radio would
                next += Self.period
            }
            let left = clock.now.duration(to: next)
            let wait = Int32(max(0, left.components.attoseconds / 1_000_000_000_000_000))
            guard waitReadable(milliseconds: wait) else { return }
            while true {
                let count = recv(ours, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count == 0 { return }
                if count < 0 { if errno == EAGAIN || errno == EWOULDBLOCK { break } else { return } }
                countIn(count)
                let samples = stride(from: 0, to: count - 1, by: 2).map {
                    Float(Int16(bitPattern: UInt16(buffer[$0]) | UInt16(buffer[$0 + 1]) << 8)) / 32768
                }
                audio.appendVoiceSpeaker(samples)
            }
        }
    }
}

/// The A2DP media link: the sound server sends RTP packets of SBC frames; the glasses decode
/// them into what their speakers play.
///
/// Unchecked `Sendable`: `decoder` and `lastError` are touched only by the link's service thread.
final class A2DPLink: AudioLink, @unchecked Sendable {
    private let audio: EmulatedAudio
    private let decoder = SBCDecoder()
    private(set) var lastError: String?

    init(audio: EmulatedAudio, onClosed: @escaping @Sendable () -> Void) throws {
        self.audio = audio
        try super.init(onClosed: onClosed)
    }

    override func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while isRunning {
            guard waitReadable(milliseconds: 100) else { return }
            let count = recv(ours, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return }
            if count < 0 { if errno == EAGAIN || errno == EWOULDBLOCK { continue } else { return } }
            countIn(count)
            do {
                let packet = try A2DPPacket(parsing: buffer.prefix(count))
                let samples = try decoder.decode(packet.frames)
                audio.appendMediaSpeaker(samples, rate: decoder.sampleRate, channels: decoder.channels)
            } catch {
                lastError = "\(error)"  // a bad packet is dropped; the link goes on
            }
        }
    }
}
