import ArgumentParser

/// `--timeout`: how long a one-shot command (`record`, `play`, `say`, `profile`) waits for the
/// glasses' route (a profile switch, a stream ready), also the route engine's ready timeout.
struct RouteWaitOption: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("How long to wait for the route (the profile switch, the stream) to be ready, in seconds (0.1...3600; default 10).", valueName: "seconds"),
            transform: DurationOption.timeout.transform)
    var timeout: Duration = .seconds(10)
}
