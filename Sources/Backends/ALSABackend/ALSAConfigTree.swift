internal import CALSA
import Foundation

/// One PCM definition found in ALSA's configuration (`pcm.NAME { type …; hint { … } }`).
public struct ALSAPCMDefinition: Sendable, Hashable {
    public var name: String
    /// The plugin type (`hw`, `plug`, `pulse`, `bluealsa`, `file`, `null`…), when given as a string.
    public var type: String?
    /// `hint.description`, when the definition has one.
    public var description: String?
    /// `hint.IOID`: `Input` or `Output` when the PCM goes one way only.
    public var ioid: String?
    /// Whether a user's file defined it (an asoundrc, `/etc/asound.conf`, an extra file),
    /// rather than ALSA's own configuration or a plugin package's.
    public var userDefined: Bool

    public init(name: String, type: String? = nil, description: String? = nil, ioid: String? = nil, userDefined: Bool) {
        self.name = name
        self.type = type
        self.description = description
        self.ioid = ioid
        self.userDefined = userDefined
    }
}

/// A private copy of ALSA's configuration, read from a list of files with ALSA's own hooks
/// (`snd_config_update_r`), so PCMs are opened against it (`snd_pcm_open_lconf`) and a test or
/// a daemon can add files of its own without touching the process's global configuration.
/// PCMs keep the tree they were opened from alive.
final class ALSAConfigTree: @unchecked Sendable {
    let top: OpaquePointer
    private let update: OpaquePointer?
    /// Every file read, with the user's ones marked.
    let files: ALSAConfigFiles

    init(files: ALSAConfigFiles) throws(ALSAError) {
        var top: OpaquePointer?
        var update: OpaquePointer?
        let path = files.topFiles.joined(separator: ":")
        try ALSAError.check("read ALSA configuration \(path)", snd_config_update_r(&top, &update, path))
        guard let top else { throw ALSAError(operation: "read ALSA configuration \(path)", code: -ENOENT) }
        self.top = top
        self.update = update
        self.files = files
    }

    deinit {
        snd_config_delete(top)
        if let update { snd_config_update_free(update) }
    }

    /// The PCM definitions under `pcm`, each marked user-defined when one of the user's files
    /// names it.
    func pcmDefinitions() -> [ALSAPCMDefinition] {
        let userNames = Set(files.userFiles.flatMap(Self.pcmNames(inFile:)))
        return Self.children(of: top, key: "pcm").map { name, node in
            ALSAPCMDefinition(
                name: name, type: Self.string(node, "type"), description: Self.string(node, "hint.description"),
                ioid: Self.string(node, "hint.IOID"), userDefined: userNames.contains(name))
        }
    }

    /// The PCM names one file defines, read on its own (no hooks): what the user wrote there.
    static func pcmNames(inFile path: String) -> [String] {
        guard FileManager.default.isReadableFile(atPath: path) else { return [] }
        var top: OpaquePointer?
        guard snd_config_top(&top) >= 0, let top else { return [] }
        defer { snd_config_delete(top) }
        var input: OpaquePointer?
        guard snd_input_stdio_open(&input, path, "r") >= 0, let input else { return [] }
        defer { snd_input_close(input) }
        guard snd_config_load(top, input) >= 0 else { return [] }
        return children(of: top, key: "pcm").map(\.0)
    }

    private static func children(of top: OpaquePointer, key: String) -> [(String, OpaquePointer)] {
        var node: OpaquePointer?
        guard snd_config_search(top, key, &node) >= 0, let node else { return [] }
        var out: [(String, OpaquePointer)] = []
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

    private static func string(_ node: OpaquePointer, _ key: String) -> String? {
        var child: OpaquePointer?
        guard snd_config_search(node, key, &child) >= 0, let child else { return nil }
        var value: UnsafePointer<CChar>?
        guard snd_config_get_string(child, &value) >= 0, let value else { return nil }
        return String(cString: value)
    }
}
