internal import Yams
internal import Routing

/// Turns one YAML profile document into a ``DeviceProfile``, reporting the line of any mistake.
public enum ProfileParser {
    public static func parse(_ yaml: String, file: String) throws(ProfileLoadError) -> DeviceProfile {
        let root: Node
        do throws(YAMLTextError) { try YAMLText.checkDepth(yaml, name: "the profile") } catch {
            throw ProfileLoadError(file: file, line: nil, message: error.description)
        }
        do {
            // `.basic`: no implicit tags. The default resolver matches every plain scalar against
            // NSRegularExpression rules (ICU's regex engine) to tag it bool/int/float/null, and the
            // reader never asks a tag: its keys are plain words and its numbers are read from text.
            guard let node = try Yams.compose(yaml: yaml, .basic) else {
                throw ProfileLoadError(file: file, line: nil, message: "empty profile")
            }
            root = node
        } catch let error as ProfileLoadError {
            throw error
        } catch {
            throw ProfileLoadError(file: file, line: Self.line(of: error), message: "not valid YAML: \(Self.problem(of: error))")
        }
        let reader = NodeReader(file: file)
        return try reader.profile(root)
    }

    /// libyaml's messages carry `line:column: problem`; keep the problem, take the line apart.
    private static func line(of error: any Error) -> Int? {
        let text = String(describing: error)
        guard let match = text.firstMatch(of: #/(\d+):(\d+): /#) else { return nil }
        return Int(match.1)
    }

    private static func problem(of error: any Error) -> String {
        let text = String(describing: error)
        let firstLine = text.split(separator: "\n").first.map(String.init) ?? text
        if let match = firstLine.firstMatch(of: #/\d+:\d+: (.*)/#) { return String(match.1) }
        return firstLine
    }
}

/// Reads typed fields out of YAML nodes; every failure names the line it happened on.
private struct NodeReader {
    let file: String

    func fail(_ node: Node?, _ message: String) -> ProfileLoadError {
        ProfileLoadError(file: file, line: node?.mark?.line, message: message)
    }

    func mapping(_ node: Node, _ what: String) throws(ProfileLoadError) -> Node.Mapping {
        guard case .mapping(let mapping) = node else { throw fail(node, "\(what) must be a mapping") }
        return mapping
    }

    func string(_ map: Node.Mapping, _ key: String, in parent: Node, default value: String? = nil)
        throws(ProfileLoadError) -> String
    {
        guard let node = map[key] else {
            if let value { return value }
            throw fail(parent, "missing required key '\(key)'")
        }
        guard case .scalar(let scalar) = node, !scalar.string.isEmpty else {
            throw fail(node, "'\(key)' must be a non-empty string")
        }
        return scalar.string
    }

    func int(_ map: Node.Mapping, _ key: String, in parent: Node, default value: Int? = nil, range: ClosedRange<Int>)
        throws(ProfileLoadError) -> Int
    {
        guard let node = map[key] else {
            if let value { return value }
            throw fail(parent, "missing required key '\(key)'")
        }
        guard let number = node.int else { throw fail(node, "'\(key)' must be a whole number, got '\(node.string ?? "?")'") }
        guard range.contains(number) else {
            throw fail(node, "'\(key)' must be within \(range.lowerBound)...\(range.upperBound), got \(number)")
        }
        return number
    }

    func double(_ map: Node.Mapping, _ key: String, default value: Double) throws(ProfileLoadError) -> Double {
        guard let node = map[key] else { return value }
        guard let number = node.float else { throw fail(node, "'\(key)' must be a number") }
        return number
    }

    func strings(_ map: Node.Mapping, _ key: String) throws(ProfileLoadError) -> [String] {
        guard let node = map[key] else { return [] }
        guard case .sequence(let sequence) = node else { throw fail(node, "'\(key)' must be a list") }
        var out: [String] = []
        for item in sequence {
            guard let text = item.string else { throw fail(item, "'\(key)' items must be strings") }
            out.append(text)
        }
        return out
    }

    func profile(_ root: Node) throws(ProfileLoadError) -> DeviceProfile {
        let map = try mapping(root, "a profile")
        let known: Set = ["id", "name", "vendor", "match", "voice", "media", "mic_gain_db", "quirks", "simulation"]
        for key in map.keys {
            if let name = key.string, !known.contains(name) {
                throw fail(key, "unknown key '\(name)' (known: \(known.sorted().joined(separator: ", ")))")
            }
        }
        let id = try string(map, "id", in: root)
        guard id.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else {
            throw fail(map["id"], "'id' must be lower-case letters, digits and '-', got '\(id)'")
        }
        guard let voiceNode = map["voice"] else { throw fail(root, "missing required key 'voice'") }
        let voiceMap = try mapping(voiceNode, "'voice'")
        let voice = DeviceProfile.Voice(
            codecs: try strings(voiceMap, "codecs"),
            sampleRate: try int(voiceMap, "sample_rate", in: voiceNode, default: 16000, range: 8000...48000))
        var media: DeviceProfile.Media?
        if let mediaNode = map["media"] {
            let mediaMap = try mapping(mediaNode, "'media'")
            media = DeviceProfile.Media(
                codecs: try strings(mediaMap, "codecs"),
                sampleRate: try int(mediaMap, "sample_rate", in: mediaNode, default: 48000, range: 8000...96000),
                channels: try int(mediaMap, "channels", in: mediaNode, default: 2, range: 1...2))
        }
        let matchNode = map["match"]
        let matchMap = try matchNode.map { node throws(ProfileLoadError) in try mapping(node, "'match'") }
        let match = DeviceProfile.Match(
            names: try matchMap.map { map throws(ProfileLoadError) in try strings(map, "names") } ?? [],
            addressPrefixes: (try matchMap.map { map throws(ProfileLoadError) in try strings(map, "address_prefixes") } ?? [])
                .map { $0.uppercased() })
        let quirksNode = map["quirks"] ?? Node.mapping([:])
        let quirksMap = try mapping(quirksNode, "'quirks'")
        let quirks = DeviceProfile.Quirks(
            voiceSettle: .milliseconds(try int(quirksMap, "voice_settle_ms", in: quirksNode, default: 0, range: 0...5000)),
            notes: try strings(quirksMap, "notes"))
        let simulationNode = map["simulation"] ?? Node.mapping([:])
        let simulationMap = try mapping(simulationNode, "'simulation'")
        let defaultProfileName = try string(simulationMap, "default_profile", in: simulationNode,
                                            default: media == nil ? "voice" : "media")
        guard let defaultProfile = AudioProfile(rawValue: defaultProfileName) else {
            throw fail(simulationMap["default_profile"], "'default_profile' must be voice, media or off")
        }
        let simulation = DeviceProfile.Simulation(
            address: try string(simulationMap, "address", in: simulationNode, default: "00:00:00:00:00:00"),
            profileSwitch: .milliseconds(try int(
                simulationMap, "profile_switch_ms", in: simulationNode, default: 500, range: 0...10000)),
            defaultProfile: defaultProfile)
        return DeviceProfile(
            id: id, name: try string(map, "name", in: root), vendor: try string(map, "vendor", in: root, default: ""),
            match: match, voice: voice, media: media, micGainDB: try double(map, "mic_gain_db", default: 0),
            quirks: quirks, simulation: simulation)
    }
}
