import AudioCore

/// The JSON a client reads: `time` and `duration` in seconds, as it has always carried them.
extension AssistantEvent: Codable {
    fileprivate enum CodingKeys: String, CodingKey {
        case type, time, text, duration, score, echoReduction
    }

    /// `time` and `duration` in seconds, as the JSON has always carried them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(Kind.self, forKey: .type)
        time = .seconds(try container.decode(Double.self, forKey: .time))
        text = try container.decodeIfPresent(String.self, forKey: .text)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration).map { .seconds($0) }
        score = try container.decodeIfPresent(Double.self, forKey: .score)
        echoReduction = try container.decodeIfPresent(Double.self, forKey: .echoReduction)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(time.inSeconds, forKey: .time)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(duration?.inSeconds, forKey: .duration)
        try container.encodeIfPresent(score, forKey: .score)
        try container.encodeIfPresent(echoReduction, forKey: .echoReduction)
    }
}
