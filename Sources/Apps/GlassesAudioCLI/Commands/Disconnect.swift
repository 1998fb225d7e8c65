import ArgumentParser

/// `glasses-audio disconnect <device>`: BlueZ's Device1.Disconnect (or DisconnectProfile).
struct Disconnect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Disconnect glasses through BlueZ (the whole link, or one profile with --profile); they stay paired.")

    @OptionGroup var link: LinkOptions

    func run() async throws { try await link.run(connect: false) }
}
