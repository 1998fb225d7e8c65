import ALSABackend
import Foundation
import TestKit

/// An asoundrc of the test's own, added to ALSA's configuration through a private tree
/// (nothing global changes): PCMs defined by `text`, rewritten as the test goes.
final class ALSATestConfig: @unchecked Sendable {
    let directory = TemporaryDirectory()
    var path: String { directory.path("asoundrc") }

    init(_ text: String) throws { try write(text) }

    /// Replaces the file (a new inode, as an editor's save gives).
    func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    var files: ALSAConfigFiles { .adding([path], to: .system(environment: ["HOME": directory.url.path])) }

    func backend(defaultPCM: String = "default", pollInterval: Duration = .milliseconds(50)) throws -> ALSAAudioBackend {
        try ALSAAudioBackend(files: files, defaultPCM: defaultPCM, pollInterval: pollInterval)
    }
}
