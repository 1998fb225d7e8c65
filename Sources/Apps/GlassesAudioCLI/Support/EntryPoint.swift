import ArgumentParser
import Foundation

/// Runs the command line with the exit codes we promise: 0 ok, 1 runtime error, 2 usage error.
public enum EntryPoint {
    public static func main() async -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            command = try GlassesAudioCommand.parseAsRoot(arguments)
        } catch {
            let code = GlassesAudioCommand.exitCode(for: error)
            let message = GlassesAudioCommand.fullMessage(for: error)
            if code == .success {
                print(message)
                exit(0)
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(2)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch let error as ExitCode {
            exit(error.rawValue)
        } catch where GlassesAudioCommand.exitCode(for: error) == .success {
            print(GlassesAudioCommand.fullMessage(for: error))  // --help, --version
            exit(0)
        } catch let error as ValidationError {
            FileHandle.standardError.write(Data("error: \(error.message)\nSee 'glasses-audio --help'.\n".utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// Writes a line to stderr (status and progress; stdout is kept for results).
func printStatus(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// One JSON line on stdout, keys sorted so scripts and diffs see a stable order.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
    flushStandardOutput()
}

/// Flushes stdout so a reader on a pipe sees each line as it is printed.
func flushStandardOutput() {
    fflush(nil)
}
