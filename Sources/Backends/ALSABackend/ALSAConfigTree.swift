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
///
/// Unchecked `Sendable`: the tree is only read once loaded, and freed only in `deinit`.
final class ALSAConfigTree: @unchecked Sendable {
    let top: OpaquePointer
    private let update: OpaquePointer?
    /// Every file read, with the user's ones marked.
    let files: ALSAConfigFiles

    init(files: ALSAConfigFiles) throws(ALSAError) {
        (top, update) = try LibASound.readConfiguration(files.topFiles.joined(separator: ":"))
        self.files = files
    }

    deinit {
        LibASound.freeConfiguration(top: top, update: update)
    }

    /// The PCM definitions under `pcm`, each marked user-defined when one of the user's files
    /// names it.
    func pcmDefinitions() -> [ALSAPCMDefinition] {
        let userNames = Set(files.userFiles.flatMap(Self.pcmNames(inFile:)))
        return LibASound.children(of: top, key: "pcm").map { name, node in
            ALSAPCMDefinition(
                name: name, type: LibASound.string(node, "type"), description: LibASound.string(node, "hint.description"),
                ioid: LibASound.string(node, "hint.IOID"), userDefined: userNames.contains(name))
        }
    }

    /// The PCM names one file defines, read on its own (no hooks): what the user wrote there.
    static func pcmNames(inFile path: String) -> [String] {
        guard FileManager.default.isReadableFile(atPath: path) else { return [] }
        return LibASound.childNames(inFile: path, key: "pcm")
    }
}
