import AudioBackend
import AudioCore
import Daemon
import Foundation
import Testing
import TestKit

/// The configuration's sources and their order, as plain values (no process).
@Suite("DaemonConfiguration")
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
            #expect("\(error)".contains("cannot read the configuration file"))
        }
    }

    @Test("the API key matches only itself, whatever the length given")
    func apiKey() throws {
        let directory = TemporaryDirectory()
        let key = try APIKey.loadOrCreate(in: directory.url.path)
        #expect(key.matches(key.value))
        #expect(!key.matches(nil) && !key.matches("") && !key.matches(String(key.value.dropLast())) && !key.matches(key.value + "0"))
        #expect(try APIKey.loadOrCreate(in: directory.url.path).value == key.value)
    }
}
