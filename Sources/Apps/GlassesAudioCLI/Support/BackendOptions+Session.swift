import AudioBackend
import BackendSelection

extension BackendOptions {
    /// What the flags ask of backend selection.
    var settings: BackendSettings {
        var settings = BackendSettings(
            kind: backend, server: server, model: model, mic: mic, micMode: micMode, speakerOut: speakerOut,
            simulationScript: simEvents?.steps.map { (at: .milliseconds($0.milliseconds), control: $0.control) } ?? [],
            simulationSpeed: simSpeed, profiles: profiles)
        settings.device = alsaDevice
        // On stderr: audio a capture lost, and where (the server, or this process falling behind).
        settings.streamNotes = { printStatus($0) }
        return settings
    }
}

extension BackendSession {
    /// Opens the backend the flags ask for and says which on stderr (unless `quiet`).
    static func open(_ options: BackendOptions, quiet: Bool = false) async throws -> BackendSession {
        let session: BackendSession
        do {
            session = try await open(options.settings)
        } catch let error as BackendError {
            throw CLIError(error.message)
        }
        for warning in session.warnings { printStatus("warning: \(warning)") }
        if !quiet {
            let why = session.reason == "asked for" ? "--backend" : session.reason
            printStatus("backend: \(session.kind.rawValue) (\(why))")
        }
        return session
    }

    /// Closes the backend, printing where the simulated speaker's output went.
    func closeAndReport() async throws {
        if let saved = try await close() { printStatus(saved) }
    }
}
