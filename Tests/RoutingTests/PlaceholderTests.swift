import Routing
import Testing

@Suite struct PlaceholderTests {
    @Test func profileHasMicrophone() { #expect(AudioProfile.voice.hasMicrophone) }
}
