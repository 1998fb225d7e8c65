import AudioCore
internal import CALSA
import Foundation

// The one file in ALSABackend that reaches libasound (CALSA): the rest of the module opens
// and moves PCMs, reads the configuration and lists the cards through `LibASound`.

/// libasound's calls as the module uses them: handles are opaque, sizes are `Int`, and
/// negative-errno returns go through ``ALSAError/check(_:_:)``.
enum LibASound {
    /// libasound's version (`snd_asoundlib_version`), e.g. `1.2.8`.
    static var version: String { String(cString: snd_asoundlib_version()) }

    /// A negative errno in words (`snd_strerror`).
    static func describe(_ code: Int32) -> String { String(cString: snd_strerror(code)) }

    // MARK: - Cards

    /// The cards present now (`snd_card_next`), each with its PCM devices (`snd_ctl_pcm_next_device`).
    /// A card that cannot be opened (going away this instant) is left out.
    static func cards() -> [ALSACard] {
        var cards: [ALSACard] = []
        var index: Int32 = -1
        while snd_card_next(&index) >= 0, index >= 0 {
            if let card = card(index: index) { cards.append(card) }
        }
        return cards
    }

    private static func card(index: Int32) -> ALSACard? {
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
        var devices: [ALSACard.PCMDevice] = []
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
            devices.append(ALSACard.PCMDevice(number: Int(device), name: deviceName, playback: playback, capture: capture))
        }
        return ALSACard(index: Int(index), id: id, name: name, devices: devices)
    }

    // MARK: - Configuration

    /// Reads the configuration files of `path` (colon-separated) with ALSA's hooks
    /// (`snd_config_update_r`): the tree's top node and its update record.
    static func readConfiguration(_ path: String) throws(ALSAError) -> (top: OpaquePointer, update: OpaquePointer?) {
        var top: OpaquePointer?
        var update: OpaquePointer?
        try ALSAError.check("read ALSA configuration \(path)", snd_config_update_r(&top, &update, path))
        guard let top else { throw ALSAError(operation: "read ALSA configuration \(path)", code: -ENOENT) }
        return (top, update)
    }

    /// Frees what ``readConfiguration(_:)`` returned.
    static func freeConfiguration(top: OpaquePointer, update: OpaquePointer?) {
        snd_config_delete(top)
        if let update { snd_config_update_free(update) }
    }

    /// The names under `key` of one configuration file read on its own (no hooks); empty when
    /// it cannot be read.
    static func childNames(inFile path: String, key: String) -> [String] {
        var top: OpaquePointer?
        guard snd_config_top(&top) >= 0, let top else { return [] }
        defer { snd_config_delete(top) }
        var input: OpaquePointer?
        guard snd_input_stdio_open(&input, path, "r") >= 0, let input else { return [] }
        defer { snd_input_close(input) }
        guard snd_config_load(top, input) >= 0 else { return [] }
        return children(of: top, key: key).map(\.name)
    }

    /// The nodes under `key` of the tree at `top`, with their names.
    static func children(of top: OpaquePointer, key: String) -> [(name: String, node: OpaquePointer)] {
        var node: OpaquePointer?
        guard snd_config_search(top, key, &node) >= 0, let node else { return [] }
        var out: [(name: String, node: OpaquePointer)] = []
        var position = snd_config_iterator_first(node)
        let end = snd_config_iterator_end(node)
        while position != end {
            if let entry = snd_config_iterator_entry(position) {
                var id: UnsafePointer<CChar>?
                if snd_config_get_id(entry, &id) >= 0, let id { out.append((String(cString: id), entry)) }
            }
            position = snd_config_iterator_next(position)
        }
        return out
    }

    /// The string at `key` below `node`, when there is one.
    static func string(_ node: OpaquePointer, _ key: String) -> String? {
        var child: OpaquePointer?
        guard snd_config_search(node, key, &child) >= 0, let child else { return nil }
        var value: UnsafePointer<CChar>?
        guard snd_config_get_string(child, &value) >= 0, let value else { return nil }
        return String(cString: value)
    }

    // MARK: - PCMs

    /// Opens the PCM `name` of the configuration at `top` (`snd_pcm_open_lconf`).
    static func openPCM(_ name: String, direction: ALSAStreamDirection, configuration top: OpaquePointer) throws(ALSAError) -> OpaquePointer {
        var handle: OpaquePointer?
        let stream = direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        try ALSAError.check("open PCM '\(name)'", snd_pcm_open_lconf(&handle, name, stream, 0, top))
        guard let handle else { throw ALSAError(operation: "open PCM '\(name)'", code: -ENODEV) }
        return handle
    }

    static func closePCM(_ pcm: OpaquePointer) { snd_pcm_close(pcm) }

    /// Sets access, sample format (float, else 16-bit), channels, rate (exactly), period and
    /// buffer; returns the sizes the PCM took and whether its samples are 16-bit integers.
    static func configure(_ pcm: OpaquePointer, name: String, format: PCMFormat, buffer: ALSABufferSettings)
        throws(ALSAError) -> (period: Int, buffer: Int, integer: Bool)
    {
        var params: OpaquePointer?
        try ALSAError.check("allocate hardware parameters", snd_pcm_hw_params_malloc(&params))
        defer { snd_pcm_hw_params_free(params) }
        let what = "configure PCM '\(name)' for \(format)"
        try ALSAError.check("\(what): any", snd_pcm_hw_params_any(pcm, params))
        try ALSAError.check("\(what): interleaved access", snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED))
        let integer = snd_pcm_hw_params_test_format(pcm, params, SND_PCM_FORMAT_FLOAT_LE) < 0
        try ALSAError.check("\(what): sample format (float32 or s16)",
            snd_pcm_hw_params_set_format(pcm, params, integer ? SND_PCM_FORMAT_S16_LE : SND_PCM_FORMAT_FLOAT_LE))
        try ALSAError.check("\(what): \(format.channels) channels", snd_pcm_hw_params_set_channels(pcm, params, UInt32(format.channels)))
        try ALSAError.check("\(what): \(format.sampleRate) Hz", snd_pcm_hw_params_set_rate(pcm, params, UInt32(format.sampleRate), 0))
        var period = snd_pcm_uframes_t(buffer.periodFrames(rate: format.sampleRate))
        var direction: Int32 = 0
        try ALSAError.check("\(what): period of \(period) frames", snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &direction))
        var size = snd_pcm_uframes_t(max(buffer.bufferFrames(rate: format.sampleRate), Int(period) * 2))
        try ALSAError.check("\(what): buffer of \(size) frames", snd_pcm_hw_params_set_buffer_size_near(pcm, params, &size))
        try ALSAError.check(what, snd_pcm_hw_params(pcm, params))
        return (Int(period), Int(size), integer)
    }

    /// Playback starts once the buffer is nearly full (not at the first frame, ALSA's default,
    /// which underruns at once), and wakes the writer once a period is free.
    static func startWhenFull(_ pcm: OpaquePointer, name: String, bufferFrames: Int, periodFrames: Int) throws(ALSAError) {
        var params: OpaquePointer?
        try ALSAError.check("allocate software parameters", snd_pcm_sw_params_malloc(&params))
        defer { snd_pcm_sw_params_free(params) }
        try ALSAError.check("read software parameters of '\(name)'", snd_pcm_sw_params_current(pcm, params))
        try ALSAError.check("set start threshold of '\(name)'",
            snd_pcm_sw_params_set_start_threshold(pcm, params, snd_pcm_uframes_t(max(periodFrames, bufferFrames - periodFrames))))
        try ALSAError.check("set wake-up size of '\(name)'", snd_pcm_sw_params_set_avail_min(pcm, params, snd_pcm_uframes_t(periodFrames)))
        try ALSAError.check("apply software parameters of '\(name)'", snd_pcm_sw_params(pcm, params))
    }

    /// Reads up to `frames` interleaved frames into `samples` (`snd_pcm_readi`): how many it
    /// read, or a negative errno.
    static func read<Sample>(_ pcm: OpaquePointer, into samples: UnsafeMutablePointer<Sample>, frames: Int) -> Int {
        Int(snd_pcm_readi(pcm, samples, snd_pcm_uframes_t(frames)))
    }

    /// Writes up to `frames` interleaved frames of `samples` (`snd_pcm_writei`): how many it
    /// wrote, or a negative errno.
    static func write<Sample>(_ pcm: OpaquePointer, from samples: UnsafePointer<Sample>, frames: Int) -> Int {
        Int(snd_pcm_writei(pcm, samples, snd_pcm_uframes_t(frames)))
    }

    /// Repairs an xrun or a suspend (`snd_pcm_recover`, silently).
    static func recover(_ pcm: OpaquePointer, from code: Int32) -> Int32 { snd_pcm_recover(pcm, code, 1) }

    /// Frames ready to read or room to write, or a negative errno (`snd_pcm_avail`).
    static func available(_ pcm: OpaquePointer) -> Int { Int(snd_pcm_avail(pcm)) }

    /// Plays out what was written (`snd_pcm_drain`); starts the stream first if it never filled
    /// to its threshold.
    static func drain(_ pcm: OpaquePointer) -> Int32 {
        if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED { snd_pcm_start(pcm) }
        return snd_pcm_drain(pcm)
    }
}
