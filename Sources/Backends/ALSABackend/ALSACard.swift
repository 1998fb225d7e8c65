/// A sound card and its PCM devices, as the control interface lists them.
public struct ALSACard: Sendable, Hashable {
    /// One PCM device on the card and the directions it offers.
    public struct PCMDevice: Sendable, Hashable {
        public var number: Int
        public var name: String
        public var playback: Bool
        public var capture: Bool

        public init(number: Int, name: String, playback: Bool, capture: Bool) {
            self.number = number
            self.name = name
            self.playback = playback
            self.capture = capture
        }
    }

    public var index: Int
    /// The card's id (`PCH`, `Device`, `vc4hdmi`): what `hw:CARD=…` takes.
    public var id: String
    public var name: String
    public var devices: [PCMDevice]

    public init(index: Int, id: String, name: String, devices: [PCMDevice]) {
        self.index = index
        self.id = id
        self.name = name
        self.devices = devices
    }

    /// The cards present now (`snd_card_next`), each with its PCM devices (`snd_ctl_pcm_next_device`).
    /// A card that cannot be opened (going away this instant) is left out.
    public static func present() -> [ALSACard] { LibASound.cards() }
}
