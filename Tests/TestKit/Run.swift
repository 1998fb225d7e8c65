import Foundation

/// Runs programs for tests: the project's own binaries and system tools.
public enum Run {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `program` (searched on PATH) and returns its status and output.
    @discardableResult
    public static func command(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        let errData = Reader(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.finish(), as: UTF8.self))
    }

    /// Like ``command(_:_:environment:)`` but throws unless the program exits 0.
    public static func checked(_ program: String, _ arguments: [String]) throws {
        let result = try command(program, arguments)
        guard result.status == 0 else {
            throw TestFailure("\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
    }

    /// The path of one of this package's executables in the build folder.
    public static func productPath(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
        // swift test runs <build>/debug/<Package>PackageTests.xctest; products sit beside it.
        var directory = bundle.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath + "/.build/debug/\(name)"
    }

    /// Reads a pipe to its end on a thread of its own.
    final class Reader: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        func finish() -> Data {
            done.wait()
            return data
        }
    }
}

/// A failure in test set-up, with what went wrong.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
