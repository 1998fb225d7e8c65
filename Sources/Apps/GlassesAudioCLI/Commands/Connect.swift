import ArgumentParser

/// `glasses-audio connect <device>`: BlueZ's Device1.Connect (or ConnectProfile).
struct Connect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Connect paired glasses through BlueZ (the whole link, or one profile with --profile).")

    @OptionGroup var link: LinkOptions

    func run() async throws { try await link.run(connect: true) }
}
