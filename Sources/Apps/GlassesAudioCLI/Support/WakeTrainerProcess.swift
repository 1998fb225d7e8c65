import ArgumentParser
import AudioCore
import Foundation

/// Runs `glasses-wake-trainer`, the offline head trainer, as a child process: the CLI does not
/// link the trainer. Its progress lines go straight to our standard error; the head's path is
/// the one line it prints on standard output.
enum WakeTrainerProcess {
    static let executableName = "glasses-wake-trainer"

    /// The trainer beside this executable (a build folder, or `$PREFIX/bin` of an installed copy),
    /// else the first one on `PATH`.
    static func executable() -> String? {
        var candidates: [String] = []
        if let own = ResourceLocator.executablePath() {
            candidates.append(URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(executableName).path)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        candidates += path.split(separator: ":").map { "\($0)/\(executableName)" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func train(phrase: String, enrollment: [String]) throws -> String {
        guard let trainer = executable() else {
            throw ValidationError(
                "training a head needs \(executableName), which is installed beside glasses-audio (`make install`, or `swift build` in a checkout)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: trainer)
        process.arguments = ["--keyword", phrase] + enrollment.flatMap { ["--enroll", $0] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let head = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, !head.isEmpty else {
            throw ValidationError("\(executableName) could not train a head for '\(phrase)' (exit \(process.terminationStatus); its message is above)")
        }
        return head
    }
}
