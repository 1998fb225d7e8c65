public import Assistant
public import AudioCore

/// The earcons' sounds, read from the project's `samples` folder (`earcon-<name>.wav`): the
/// listening and done ones for earcons on, the timer's where timers can ring (it rings whatever
/// the earcons setting).
public enum EarconSounds {
    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot read \(path): \(reason)" }
    }

    public static func load(_ wanted: [Earcon], folder: String? = ResourceLocator.find("samples")) throws(Missing) -> [Earcon: AudioBuffer] {
        let folder = folder ?? "samples"
        var sounds: [Earcon: AudioBuffer] = [:]
        for earcon in wanted {
            let path = "\(folder)/earcon-\(earcon.rawValue).wav"
            do {
                sounds[earcon] = try AudioFileReader.read(path)
            } catch {
                throw Missing(path: path, reason: "\(error)")
            }
        }
        return sounds
    }
}
