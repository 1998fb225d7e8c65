import AudioBackend
import AudioCore
import Daemon
import DeviceProfiles
import Foundation
import Testing
import TestKit

/// The configuration's sources and their order, as plain values (no process).
@Suite("DaemonConfiguration", .oneAtATime)
struct ConfigurationTests {
    @Test("defaults: simulated-or-pulse, 8742, 10700, loopback, the data directory from the environment")
    func defaults() throws {
        let configuration = try ConfigurationLoader(environment: ["HOME": "/home/ada"]).load()
        #expect(configuration.backend == nil)
        #expect(configuration.httpPort == 8742 && configuration.wyomingPort == 10700)
        #expect(configuration.bind == "127.0.0.1")
        #expect(configuration.dataDirectory == "/home/ada/.local/share/glasses-audiod")
        #expect(try ConfigurationLoader(environment: ["STATE_DIRECTORY": "/var/lib/glasses-audiod"]).load().dataDirectory == "/var/lib/glasses-audiod")
    }

    @Test("file < environment < flags")
    func precedence() throws {
        let directory = TemporaryDirectory()
        let file = directory.path("c.yaml")
        try "http-port: 9000\nwyoming-port: 9001\nbind: 0.0.0.0\nmic-mode: once\nbackend: simulated\n".write(toFile: file, atomically: true, encoding: .utf8)
        let loader = ConfigurationLoader(environment: ["GLASSES_AUDIOD_WYOMING_PORT": "9101", "GLASSES_AUDIOD_BIND": "127.0.0.2"])
        let configuration = try loader.load(file: file, flags: ["bind": "127.0.0.3"])
        #expect(configuration.httpPort == 9000)
        #expect(configuration.wyomingPort == 9101)
        #expect(configuration.bind == "127.0.0.3")
        #expect(configuration.micMode == .once)
        #expect(configuration.backend == .simulated)
        let viaEnvironment = try ConfigurationLoader(environment: ["GLASSES_AUDIOD_CONFIG": file]).load()
        #expect(viaEnvironment.httpPort == 9000)
    }

    @Test("each kind of bad value names its key, its source and what is allowed", arguments: [
        (["listen": "maybe"], "--listen: 'maybe' is not allowed; allowed: one of true, false"),
        (["event-retention": "5"], "--event-retention: '5' is not allowed; allowed: a whole number in 10...10000000"),
        (["data-dir": " "], "--data-dir: ' ' is not allowed; allowed: a folder path (not empty)"),
        (["policy": "loud"], "--policy: 'loud' is not allowed; allowed: one of voiceFirst, mediaFirst"),
    ])
    func badFlags(_ flags: [String: String], _ message: String) {
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader(environment: [:]).load(flags: flags) }
        do { _ = try ConfigurationLoader(environment: [:]).load(flags: flags) } catch { #expect("\(error)" == message) }
    }

    @Test("a file that is not a mapping, or holds a list for a value, is refused with its path")
    func badFiles() throws {
        let directory = TemporaryDirectory()
        let list = directory.path("list.yaml")
        try "- http-port\n".write(toFile: list, atomically: true, encoding: .utf8)
        do { _ = try ConfigurationLoader(environment: [:]).load(file: list); Issue.record("accepted a list") } catch {
            #expect("\(error)".contains("\(list) must be a mapping of settings"))
        }
        let nested = directory.path("nested.yaml")
        try "http-port: [1, 2]\n".write(toFile: nested, atomically: true, encoding: .utf8)
        do { _ = try ConfigurationLoader(environment: [:]).load(file: nested); Issue.record("accepted a list value") } catch {
            #expect("\(error)".contains("http-port in \(nested): '(a list or mapping)' is not allowed"))
        }
        do { _ = try ConfigurationLoader(environment: [:]).load(file: directory.path("missing.yaml")); Issue.record("accepted a missing file") } catch {
            #expect("\(error)" == "configuration file: cannot read \(directory.path("missing.yaml")): No such file or directory")
        }
    }

    @Test("a folder, a FIFO, /dev/zero, a huge file as --config: one sentence naming what it is, nothing read without bound",
          arguments: ["folder", "fifo", "/dev/zero", "/dev/urandom", "huge"])
    func configThatIsNoFile(_ kind: String) throws {
        let directory = TemporaryDirectory()
        var path = kind
        let words: String
        switch kind {
        case "folder":
            path = directory.path("")
            words = "is a folder, not a YAML file"
        case "fifo":
            path = directory.path("pipe.yaml")
            #expect(mkfifo(path, 0o600) == 0)
            words = "is a FIFO (named pipe), not a YAML file"
        case "huge":
            path = directory.path("huge.yaml")
            try Data(repeating: UInt8(ascii: "#"), count: 2 << 20).write(to: URL(fileURLWithPath: path))
            words = "is 2097152 bytes, over the 1048576"
        default:
            words = "is a device, not a YAML file"
        }
        let error = try #require(throws: ConfigurationFileError.self) { try ConfigurationLoader(environment: [:]).load(file: path) }
        #expect("\(error)".contains(words), "\(error)")
        #expect(!"\(error)".contains("NSCocoaErrorDomain") && !"\(error)".contains("permission"), "\(error)")
    }

    @Test("YAML nested 5,000 levels (flow, compact lists) or 300 (block) is refused before parsing; a normal file passes", arguments: ["flow", "block", "compact"])
    func deepYAML(_ style: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.path("deep.yaml")
        let text = switch style {
        case "flow": "http-port: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n"
        case "block": (0..<300).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " 1\n"
        default: String(repeating: "- ", count: 5000) + "x\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: ConfigurationFileError.self) { try ConfigurationLoader(environment: [:]).load(file: path) }
        #expect("\(error)".contains("levels deep, over the 64 allowed"), "\(error)")
        let normal = "# comment [[[[\nhttp-port: 9000\nbind: '0.0.0.0' # {{{{\nlog-level: |\n  [[[[[[\n  {{{{\nlisten: \"true\"\n"
        #expect(YAMLText.depth(of: normal) <= 3)
    }

    @Test("the API key matches only itself, whatever the length given")
    func apiKey() throws {
        let directory = TemporaryDirectory()
        let key = try APIKey.loadOrCreate(in: directory.url.path)
        #expect(key.matches(key.value))
        #expect(!key.matches(nil) && !key.matches("") && !key.matches(String(key.value.dropLast())) && !key.matches(key.value + "0"))
        #expect(try APIKey.loadOrCreate(in: directory.url.path).value == key.value)
    }

    @Test("the key followed or cut by n characters is refused (lengths compared exactly, not folded into a byte)",
          arguments: [1, 255, 256, 257, 512])
    func apiKeyLengthDifferences(_ extra: Int) throws {
        let directory = TemporaryDirectory()
        let key = try APIKey.loadOrCreate(in: directory.url.path)
        #expect(!key.matches(key.value + String(repeating: "A", count: extra)))
        #expect(!key.matches(key.value + String(repeating: "\0", count: extra)))
        #expect(!key.matches(String(repeating: "A", count: extra) + key.value))
        #expect(!key.matches(String(key.value.prefix(max(0, key.value.count - extra)))))
    }
}
