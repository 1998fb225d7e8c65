import Foundation
import Testing
import TestKit

extension CLISuites {
    /// The emulator under an ordinary user's handling: commands typed while it waits for more,
    /// a script with a typo, and being killed outright (issue 12, class 4).
    @Suite("glasses-emulator hardening", .serialized)
    struct EmulatorHardeningTests {
        let binary = Run.productPath("glasses-emulator")

        @Test("status three times then quit, typed on a terminal that stays open: three answers, exit 0")
        func statusThenQuit() throws {
            let emulator = try Child(binary, [])
            try #require(emulator.waitForOutput("PULSE_SERVER="), "\(emulator.stderrSoFar)")
            emulator.type("wait server\nstatus\nstatus\nstatus\nquit\n")
            let result = emulator.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").filter { $0.contains("; sound server registered;") }.count == 3)
        }

        @Test("a typed line that is no command is answered with the known ones, and the emulator goes on")
        func typedTypo() throws {
            let emulator = try Child(binary, [])
            try #require(emulator.waitForOutput("PULSE_SERVER="), "\(emulator.stderrSoFar)")
            emulator.type("stauts\nstatus\nquit\n")
            let result = emulator.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("unknown command \"stauts\"; known: connect, disconnect, status, voice, touch, battery N (0-100), wait server, quit"))
            #expect(result.stdout.contains("sound server"))
        }

        @Test("a negative number after an option is its value (the README's --echo-db -6), checked before anything starts",
              arguments: [(["--echo-db", "-100"], "--echo-db must be within -60...20 dB"), (["--echo-db", "-6", "--echo-delay", "-5"], "--echo-delay must be within 0...1000 ms")])
        func negativeNumbers(_ arguments: [String], _ message: String) throws {
            let result = try Child(binary, arguments).finish()
            #expect(result.status == 2, "\(result.stderr)")  // a usage error, as for a bad --script
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("Missing value"))
            #expect(!result.stdout.contains("PULSE_SERVER="))
        }

        @Test("a script step it cannot parse is a usage error before anything starts", arguments: ["xs quit", "2x connect; quit", "1e300s quit", "-1s quit"])
        func badScript(_ script: String) throws {
            let result = try Child(binary, ["--script", script]).finish()
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("'--script <script>'"))
            #expect(!result.stdout.contains("PULSE_SERVER="))
        }

        @Test("SIGINT and SIGTERM while waiting for input stop it cleanly: sandbox gone", arguments: [SIGINT, SIGTERM])
        func signalled(_ signal: Int32) throws {
            let emulator = try Child(binary, [])
            try #require(emulator.waitForOutput("PULSE_SERVER="), "\(emulator.stderrSoFar)")
            let folder = try Self.sandboxFolder(emulator.stdoutSoFar)
            emulator.signal(signal)
            let result = emulator.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder))
            #expect(Self.processes(mentioning: folder).isEmpty)
        }

        @Test("killed with SIGKILL, its dbus-daemon, pulseaudio and temp folder still go away")
        func killed() throws {
            let emulator = try Child(binary, [])
            try #require(emulator.waitForOutput("PULSE_SERVER="), "\(emulator.stderrSoFar)")
            let folder = try Self.sandboxFolder(emulator.stdoutSoFar)
            let daemons = Self.processes(mentioning: folder)
            #expect(daemons.contains { $0.hasPrefix("dbus-daemon ") } && daemons.contains { $0.hasPrefix("pulseaudio ") }, "\(daemons)")
            emulator.signal(SIGKILL)
            #expect(emulator.finish().status == 128 + SIGKILL)
            #expect(Poll.until { !FileManager.default.fileExists(atPath: folder) && Self.processes(mentioning: folder).isEmpty })
        }

        @Test("its whole process group killed with SIGKILL (a shell's kill -9 -PGID, a closed tmux pane): the sandbox still goes away")
        func groupKilled() throws {
            // setsid: the emulator leads a process group of its own, as under a shell's job control.
            let emulator = try Child("setsid", [binary])
            try #require(emulator.waitForOutput("PULSE_SERVER="), "\(emulator.stderrSoFar)")
            let folder = try Self.sandboxFolder(emulator.stdoutSoFar)
            #expect(getpgid(emulator.pid) == emulator.pid)
            #expect(!Self.processes(mentioning: folder).isEmpty)
            kill(-emulator.pid, SIGKILL)
            #expect(emulator.finish().status == 128 + SIGKILL)
            #expect(Poll.until { !FileManager.default.fileExists(atPath: folder) && Self.processes(mentioning: folder).isEmpty },
                    "left behind: \(Self.processes(mentioning: folder)), folder exists: \(FileManager.default.fileExists(atPath: folder))")
        }

        /// `/tmp/glasses-emulator-XXXX` from the printed `PULSE_SERVER=unix:…/pulse/native`.
        static func sandboxFolder(_ stdout: String) throws -> String {
            let line = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("PULSE_SERVER=unix:") })
            return URL(fileURLWithPath: String(line.dropFirst("PULSE_SERVER=unix:".count)))
                .deletingLastPathComponent().deletingLastPathComponent().path
        }

        /// Live processes (not the watchdog's shell) whose command line names `folder`.
        static func processes(mentioning folder: String) -> [String] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
                let command = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
                return command.contains(folder) && !command.contains("glasses-emulator-watchdog") ? command : nil
            }
        }
    }
}
