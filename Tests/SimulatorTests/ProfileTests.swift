import AudioCore
import DeviceProfiles
import Foundation
import Routing
import Testing
import TestKit

@Suite("Device profiles", .oneAtATime)
struct ProfileTests {
    @Test("every bundled profile loads", arguments: [
        "ray-ban-meta-gen-1", "ray-ban-meta-gen-2", "oakley-meta-hstn", "bose-frames", "pi-glasses", "generic-hfp-headset",
    ])
    func bundledProfilesLoad(id: String) throws {
        #expect(Fixtures.library.problems.isEmpty, "\(Fixtures.library.problems)")
        let profile = try Fixtures.profile(id)
        #expect(!profile.name.isEmpty)
        #expect(profile.availableProfiles.contains(.voice))
    }

    @Test("devices are recognised by name or address prefix")
    func matching() throws {
        let library = Fixtures.library
        #expect(library.profile(matchingName: "Bose Frames Tenor", address: "00:11:22:33:44:55")?.id == "bose-frames")
        #expect(library.profile(matchingName: "raspberry", address: "b8:27:eb:12:34:56")?.id == "pi-glasses")
        #expect(library.profile(matchingName: "Unknown Speaker", address: "00:11:22:33:44:55") == nil)
    }

    @Test("a malformed profile is reported with file and line, and the others still load")
    func malformedProfile() throws {
        let directory = TemporaryDirectory()
        let good = try String(contentsOfFile: (ResourceLocator.find("profiles") ?? "profiles") + "/bose-frames.yaml", encoding: .utf8)
        try good.write(toFile: directory.path("good.yaml"), atomically: true, encoding: .utf8)
        try "id: broken\nname: Broken\nvoice:\n  sample_rate: lots\n".write(toFile: directory.path("bad-type.yaml"), atomically: true, encoding: .utf8)
        try "id: x\nname: [unclosed\n".write(toFile: directory.path("bad-syntax.yaml"), atomically: true, encoding: .utf8)
        let library = ProfileLibrary.load(directory: directory.url.path)
        #expect(library.profiles.map(\.id) == ["bose-frames"])
        let problems = library.problems.sorted { $0.file < $1.file }
        #expect(problems.count == 2)
        #expect(problems[0].file.hasSuffix("bad-syntax.yaml"))
        #expect(problems[0].line != nil)
        #expect(problems[1].description.hasSuffix("bad-type.yaml:4: 'sample_rate' must be a whole number, got 'lots'"))
    }

    @Test("a profile nested 5,000 levels deep, a FIFO or a device named like a profile: skipped with a reason, no crash, no hang")
    func hostileProfiles() throws {
        let directory = TemporaryDirectory()
        let good = try String(contentsOfFile: (ResourceLocator.find("profiles") ?? "profiles") + "/bose-frames.yaml", encoding: .utf8)
        try good.write(toFile: directory.path("good.yaml"), atomically: true, encoding: .utf8)
        try ("id: deep\nname: " + String(repeating: "[", count: 5000)).write(toFile: directory.path("deep.yaml"), atomically: true, encoding: .utf8)
        #expect(mkfifo(directory.path("pipe.yaml"), 0o600) == 0)
        #expect(symlink("/dev/zero", directory.path("zero.yaml")) == 0)
        let library = ProfileLibrary.load(directory: directory.url.path)
        #expect(library.profiles.map(\.id) == ["bose-frames"])
        let problems = library.problems.sorted { $0.file < $1.file }.map(\.description)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.first?.contains("nests 5001 levels deep, over the 64 allowed") == true, "\(problems)")
        #expect(problems.dropFirst().first?.contains("is a FIFO (named pipe), not a YAML file") == true, "\(problems)")
        #expect(problems.last?.contains("is a device, not a YAML file") == true, "\(problems)")
    }

    @Test("unknown keys and missing keys are named")
    func unknownAndMissingKeys() {
        #expect(throws: ProfileLoadError(file: "f", line: 2, message: "unknown key 'colour' (known: id, match, media, mic_gain_db, name, quirks, simulation, vendor, voice)")) {
            try ProfileParser.parse("id: a\ncolour: red\n", file: "f")
        }
        #expect(throws: ProfileLoadError(file: "f", line: 1, message: "missing required key 'voice'")) {
            try ProfileParser.parse("id: a\nname: A\n", file: "f")
        }
    }
}
