import Foundation
import Testing
import OpenWakeWord

/// The installed openWakeWord files the file-level tests read (scripts/bootstrap installs them).
enum ModelFiles {
    static let directory = OpenWakeWordModels.directory()

    /// The bytes of `name`, or the test is skipped saying how to install it.
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
            try Test.cancel("\(directory)/\(name) is not installed; scripts/bootstrap fetches it (scripts/fetch-openwakeword)")
        }
        return [UInt8](data)
    }
}
