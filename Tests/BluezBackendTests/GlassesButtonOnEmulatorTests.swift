import BluezBackend
import Foundation
import GlassesEmulator
import Testing
import TestKit

extension GlassesButtonTests {
    @Test("on the emulated glasses: bluetoothd's device for their AVRCP keys is found, a touch is a press; after a fold the reader waits, and reads the device the reconnect makes")
    func onTheEmulator() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avrcp-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = try EmulatedInputDevices(folder: folder)
        let bus = try DBusDaemon()
        defer { bus.stop() }
        let glasses = BluezClientTests.glasses
        let emulator = try await GlassesEmulator.start(busAddress: bus.address, glasses: glasses, inputDevices: inputs, logger: BluezClientTests.quiet)
        defer { emulator.close() }
        #expect(throws: EmulatorError.self) { try emulator.touch() }  // not connected: no AVRCP
        try emulator.connect()
        let listing = InputDevices.parse(try String(contentsOfFile: inputs.devicesFile, encoding: .utf8))
        #expect(listing.map(\.name) == ["Ray-Ban Meta Gen 2 (AVRCP)"] && listing.first?.bus == "0005" && listing.first?.uniq == "")

        let reader = try GlassesButtonReader(
            address: glasses.address, name: glasses.name, devicesFile: inputs.devicesFile, inputDirectory: inputs.inputDirectory)
        defer { reader.stop() }
        #expect(reader.state == "reading \(inputs.inputDirectory)/event0")
        try emulator.touch()
        #expect(try await firstMatch(reader.events) { $0.isPress ? true : nil } == true)

        // The fold takes the device away: the reader waits for the next one.
        try emulator.disconnect()
        #expect(try await Self.state(of: reader, becomes: "waiting for the input device of Ray-Ban Meta Gen 2 (AVRCP)"))
        #expect(throws: EmulatorError.self) { try emulator.touch() }
        try emulator.connect()
        #expect(try await Self.state(of: reader, becomes: "reading \(inputs.inputDirectory)/event1"))
        try emulator.touch()
        #expect(try await firstMatch(reader.events) { $0.isPress ? true : nil } == true)
    }

    /// Whether the reader's state becomes `expected` (looked at every 50 ms, for up to 30 s).
    static func state(of reader: GlassesButtonReader, becomes expected: String) async throws -> Bool {
        for _ in 0..<600 {
            if reader.state == expected { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the reader's state stayed \"\(reader.state)\", not \"\(expected)\"")
        return false
    }
}
