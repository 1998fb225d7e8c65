public import Routing

/// Which of ALSA's PCMs are endpoints a person would pick, as a pure function of what was found:
/// each card's `hw:` and `plughw:` devices, `default`, `pulse`, `bluealsa`, and the PCMs the
/// user defined. ALSA's internals (`dmix`, `dsnoop`, `front`, `surround51`…) and the rate
/// converters plugin packages add (`lavrate`, `samplerate`, `speexrate`…) are not.
public enum ALSAEndpointCatalog {
    /// The PCMs of ALSA's own configuration and plugin packages that are endpoints.
    public static let knownEndpoints: [String: String] = [
        "default": "ALSA's default PCM",
        "pulse": "PulseAudio through the ALSA pulse plugin",
        "bluealsa": "BlueALSA (Bluetooth) through the ALSA bluealsa plugin",
    ]

    /// The endpoints, sinks before sources, in a stable order.
    public static func endpoints(cards: [ALSACard], definitions: [ALSAPCMDefinition]) -> [AudioEndpoint] {
        var out: [AudioEndpoint] = []
        for card in cards {
            for device in card.devices {
                for (prefix, how) in [("hw", "direct"), ("plughw", "with format and rate conversion")] {
                    let name = "\(prefix):CARD=\(card.id),DEV=\(device.number)"
                    let description = "\(card.name), \(device.name) (\(how))"
                    if device.playback { out.append(endpoint(name, .sink, description)) }
                    if device.capture { out.append(endpoint(name, .source, description)) }
                }
            }
        }
        let defined = Dictionary(definitions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (name, known) in knownEndpoints.sorted(by: { $0.key < $1.key }) where defined[name]?.userDefined == false {
            out += both(name, known)
        }
        for definition in definitions.filter(\.userDefined).sorted(by: { $0.name < $1.name }) {
            let description = definition.description ?? "\(definition.type ?? "user-defined") PCM from the user's ALSA configuration"
            switch definition.ioid {
            case "Output": out.append(endpoint(definition.name, .sink, description))
            case "Input": out.append(endpoint(definition.name, .source, description))
            default: out += both(definition.name, description)
            }
        }
        return out.sorted { ($0.direction == .sink ? 0 : 1, $0.name) < ($1.direction == .sink ? 0 : 1, $1.name) }
    }

    /// What changed between two listings, as route events: departures first, then arrivals.
    public static func changes(from old: [AudioEndpoint], to new: [AudioEndpoint]) -> [RouteEvent] {
        func key(_ endpoint: AudioEndpoint) -> String { "\(endpoint.direction.rawValue) \(endpoint.name)" }
        let oldKeys = Set(old.map(key))
        let newKeys = Set(new.map(key))
        let gone = old.filter { !newKeys.contains(key($0)) }.map { RouteEvent.endpointGone(name: $0.name, direction: $0.direction) }
        let appeared = new.filter { !oldKeys.contains(key($0)) }.map(RouteEvent.endpointAppeared)
        return gone + appeared
    }

    private static func both(_ name: String, _ description: String) -> [AudioEndpoint] {
        [endpoint(name, .sink, description), endpoint(name, .source, description)]
    }

    /// ALSA does not say a PCM's rate before it is opened; 48 kHz stereo is the nominal value
    /// (what `plug` layers convert from and to).
    private static func endpoint(_ name: String, _ direction: EndpointDirection, _ description: String) -> AudioEndpoint {
        AudioEndpoint(name: name, direction: direction, description: description, sampleRate: 48000, channels: 2)
    }
}
