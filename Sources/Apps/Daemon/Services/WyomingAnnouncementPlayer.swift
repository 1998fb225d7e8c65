import AssistantService
import ServiceLifecycle
import WyomingServer

/// Home Assistant's announcements to the Wyoming satellite, played one after another as the
/// assistant decides (one-way: a media route of its own, no switch to HFP), each answered with
/// `played` once it played to the end (Home Assistant waits for it).
struct WyomingAnnouncementPlayer: Service {
    let link: WyomingSatelliteLink
    let assistant: AssistantService

    func run() async throws {
        for await announcement in link.announcements.cancelOnGracefulShutdown() {
            if await assistant.announce(announcement.audio, startConversation: false) {
                await link.announcementPlayed(for: announcement)
            }
        }
    }
}
