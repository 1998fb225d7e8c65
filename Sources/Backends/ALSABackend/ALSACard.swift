internal import CALSA

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
    public static func present() -> [ALSACard] {
        var cards: [ALSACard] = []
        var index: Int32 = -1
        while snd_card_next(&index) >= 0, index >= 0 {
            if let card = read(index: index) { cards.append(card) }
        }
        return cards
    }

    private static func read(index: Int32) -> ALSACard? {
        var ctl: OpaquePointer?
        guard snd_ctl_open(&ctl, "hw:\(index)", 0) >= 0, let ctl else { return nil }
        defer { snd_ctl_close(ctl) }
        var info: OpaquePointer?
        guard snd_ctl_card_info_malloc(&info) >= 0, let info else { return nil }
        defer { snd_ctl_card_info_free(info) }
        guard snd_ctl_card_info(ctl, info) >= 0 else { return nil }
        let id = String(cString: snd_ctl_card_info_get_id(info))
        let name = String(cString: snd_ctl_card_info_get_name(info))
        var pcmInfo: OpaquePointer?
        guard snd_pcm_info_malloc(&pcmInfo) >= 0, let pcmInfo else { return nil }
        defer { snd_pcm_info_free(pcmInfo) }
        var devices: [PCMDevice] = []
        var device: Int32 = -1
        while snd_ctl_pcm_next_device(ctl, &device) >= 0, device >= 0 {
            func offers(_ stream: snd_pcm_stream_t) -> Bool {
                snd_pcm_info_set_device(pcmInfo, UInt32(device))
                snd_pcm_info_set_subdevice(pcmInfo, 0)
                snd_pcm_info_set_stream(pcmInfo, stream)
                return snd_ctl_pcm_info(ctl, pcmInfo) >= 0
            }
            let playback = offers(SND_PCM_STREAM_PLAYBACK)
            let capture = offers(SND_PCM_STREAM_CAPTURE)
            let deviceName = (playback || capture) ? String(cString: snd_pcm_info_get_name(pcmInfo)) : ""
            devices.append(PCMDevice(number: Int(device), name: deviceName, playback: playback, capture: capture))
        }
        return ALSACard(index: Int(index), id: id, name: name, devices: devices)
    }
}
