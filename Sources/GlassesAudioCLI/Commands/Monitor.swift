import ArgumentParser
import AudioBackend
import Foundation
import Routing

/// `glasses-audio monitor`: every route change as it happens, one line each.
struct Monitor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print route changes live, one line each, until Ctrl-C.")

    @OptionGroup var backendOptions: BackendOptions

    @Option(help: "Stop after this many seconds.")
    var seconds: Double?

    @Option(help: "Stop after this many events.")
    var count: Int?

    @Flag(help: "One JSON object per line.")
    var json = false

    func run() async throws {
        let session = try await BackendSession.open(backendOptions, quiet: json)
        let events = await session.backend.events()
        if !json { printStatus("watching route changes on \(session.backend.name); Ctrl-C stops") }
        let start = ContinuousClock.now
        let (json, count, seconds) = (self.json, self.count, self.seconds)
        try await Interrupt.cancellable {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var seen = 0
                    for await event in events {
                        let elapsed = ContinuousClock.now - start
                        let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                        if json {
                            try printJSON(RouteEventRecord(event, time: (time * 1000).rounded() / 1000))
                        } else {
                            print(String(format: "%8.3f  %@", time, event.description))
                            flushStandardOutput()
                        }
                        seen += 1
                        if let count, seen >= count { return }
                    }
                }
                if let seconds {
                    group.addTask { try await Task.sleep(for: .seconds(seconds)) }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        try await session.close()
    }
}
