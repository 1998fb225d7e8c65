public import ESPHomeAPI
public import Logging

/// The glasses' speaker as Home Assistant's media player entity: what it plays (one media at a
/// time: a new one stops the last), its volume and mute, carried out through the daemon's
/// `play` (which hands the media to the assistant: it decides where, one-way on the media
/// route). Each playback is kept until it ends and reports its end to the connected clients
/// (``stateChanges``); ``finish()`` stops and awaits the one under way.
public actor ESPHomeMediaPlayback {
    public struct State: Sendable, Equatable {
        public var playing = false
        /// 0...1, applied from the next media.
        public var volume: Float = 1
        public var muted = false
    }

    public private(set) var state = State()
    private var playback: (number: Int, url: String, task: Task<Void, Never>)?
    private var playbacks = 0
    /// Plays the media at a URL at a gain (0...1); whether it played to its end.
    private let play: @Sendable (_ url: String, _ gain: Float) async -> Bool
    private let changed: AsyncStream<Void>.Continuation
    /// One element when the state changed by itself (a media ended): the server pushes it to
    /// the clients.
    public nonisolated let stateChanges: AsyncStream<Void>
    private let logger: Logger

    public init(logger: Logger, play: @escaping @Sendable (_ url: String, _ gain: Float) async -> Bool) {
        self.logger = logger
        self.play = play
        (stateChanges, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// `device` with the speaker's state.
    public func applied(to device: ESPHomeDeviceState) -> ESPHomeDeviceState {
        var device = device
        device.speakerPlaying = state.playing
        device.speakerVolume = state.volume
        device.speakerMuted = state.muted
        return device
    }

    public func carryOut(_ command: ESPHomeMediaCommand) async {
        switch command {
        case .play(let url):
            await stopPlaying()
            playbacks += 1
            let number = playbacks
            let gain = state.muted ? 0 : state.volume
            state.playing = true
            logger.info("esphome: the media player plays \(url) (volume \(gain))")
            // Runs on this actor once `carryOut` returns, so it is kept before it can end.
            playback = (number, url, Task { [play] in
                let played = await play(url, gain)
                self.ended(number, played: played)
            })
        case .stop:
            await stopPlaying()
        case .setVolume(let volume):
            state.volume = volume
        case .setMuted(let muted):
            state.muted = muted
        }
    }

    /// Stops the media under way (it ends as interrupted) and returns once it has ended.
    public func finish() async { await stopPlaying() }

    private func stopPlaying() async {
        guard let current = playback else { return }
        current.task.cancel()
        await current.task.value
    }

    private func ended(_ number: Int, played: Bool) {
        guard let current = playback, current.number == number else { return }
        playback = nil
        state.playing = false
        logger.info("esphome: the media player \(played ? "played" : "stopped") \(current.url)")
        changed.yield()
    }
}
