import Foundation

/// Which files make up ALSA's configuration for the backend: the top files
/// (`ALSA_CONFIG_PATH`, else ALSA's `alsa.conf`, whose hooks read `/etc/asound.conf` and the
/// user's asoundrc), plus extra files of the caller's.
public struct ALSAConfigFiles: Sendable, Hashable {
    /// The files ALSA reads first, in order (what `ALSA_CONFIG_PATH` lists).
    public var topFiles: [String]
    /// The files whose PCMs are the user's own: endpoints a person would pick.
    public var userFiles: [String]

    public init(topFiles: [String], userFiles: [String]) {
        self.topFiles = topFiles
        self.userFiles = userFiles
    }

    /// ALSA's main file.
    public static let alsaConf = "/usr/share/alsa/alsa.conf"

    /// What libasound itself reads for this process: `ALSA_CONFIG_PATH` (or `alsa.conf`), whose
    /// hooks read `/etc/asound.conf`, `$XDG_CONFIG_HOME/alsa/asoundrc` and `~/.asoundrc`.
    public static func system(environment: [String: String] = ProcessInfo.processInfo.environment) -> ALSAConfigFiles {
        let listed = (environment["ALSA_CONFIG_PATH"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        let top = listed.isEmpty ? [alsaConf] : listed
        let home = environment["HOME"] ?? NSHomeDirectory()
        let xdg = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        let user = top.filter { $0 != alsaConf } + ["/etc/asound.conf", xdg + "/alsa/asoundrc", home + "/.asoundrc"]
        return ALSAConfigFiles(topFiles: top, userFiles: user)
    }

    /// ALSA's own configuration plus `extra` files (an application's or a test's asoundrc).
    public static func adding(_ extra: [String], to base: ALSAConfigFiles = .system()) -> ALSAConfigFiles {
        ALSAConfigFiles(topFiles: base.topFiles + extra, userFiles: base.userFiles + extra)
    }

    /// Each file's inode, size and modification time, to notice an edit (zeros for a missing file).
    func stamps() -> [[Int]] {
        (topFiles + userFiles).map { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return [0, 0, 0, 0] }
            return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        }
    }
}
