/// What Home Assistant's media player entity (the glasses' speaker) asks, in the daemon's
/// terms: play a URL (HA's "play media", or its announcement), stop, the volume and the mute.
public enum ESPHomeMediaCommand: Sendable, Equatable {
    case play(url: String)
    case stop
    /// 0...1.
    case setVolume(Float)
    case setMuted(Bool)

    /// The volume step of HA's volume up and down.
    static let volumeStep: Float = 0.1

    /// The commands one `MediaPlayerCommandRequest` asks for, in order (the volume before the
    /// media it applies to), or the log line saying why it asks for nothing the glasses do.
    /// The glasses play what they are given from its start: no pause (pause stops, as
    /// `supports_pause` false tells HA), nothing to resume.
    public static func decide(
        _ request: ESPHomeMediaPlayerCommandRequest, state: ESPHomeDeviceState
    ) -> (commands: [ESPHomeMediaCommand], notes: [String]) {
        var commands: [ESPHomeMediaCommand] = []
        var notes: [String] = []
        if request.hasVolume_p { commands.append(.setVolume(min(1, max(0, request.volume)))) }
        if request.hasCommand_p {
            switch request.command {
            case .play:
                if !request.hasMediaURL_p { notes.append("play without media: the glasses cannot resume (play media instead)") }
            case .pause: commands.append(.stop); notes.append("the glasses cannot pause: stopped")
            case .stop: commands.append(.stop)
            case .mute: commands.append(.setMuted(true))
            case .unmute: commands.append(.setMuted(false))
            case .toggle:
                if state.speakerPlaying { commands.append(.stop) } else { notes.append("toggle with nothing playing: nothing to resume") }
            case .volumeUp: commands.append(.setVolume(min(1, state.speakerVolume + volumeStep)))
            case .volumeDown: commands.append(.setVolume(max(0, state.speakerVolume - volumeStep)))
            default: notes.append("the media command \(request.command) is not one the glasses' speaker has: ignored")
            }
        }
        if request.hasMediaURL_p {
            if request.mediaURL.isEmpty { notes.append("play media with an empty URL: ignored") } else { commands.append(.play(url: request.mediaURL)) }
        }
        return (commands, notes)
    }
}
