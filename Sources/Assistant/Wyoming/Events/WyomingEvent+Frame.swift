extension WyomingEvent {
    /// Reads a received frame; throws ``WyomingProtocolError/unknownType(_:)`` for a type not in
    /// the protocol and ``WyomingProtocolError/badField(type:field:expected:)`` for bad data.
    public init(frame: WyomingFrame) throws(WyomingProtocolError) {
        let fields = Fields(type: frame.type, data: frame.data)
        switch frame.type {
        case "describe": self = .describe
        case "info": self = .info(WyomingInfo(json: frame.data))
        case "ping": self = .ping(text: try fields.optionalString("text"))
        case "pong": self = .pong(text: try fields.optionalString("text"))
        case "run-satellite": self = .runSatellite
        case "pause-satellite": self = .pauseSatellite
        case "run-pipeline":
            self = .runPipeline(
                WyomingPipelineRun(
                    start: try fields.stage("start_stage"), end: try fields.stage("end_stage"),
                    wakeWordName: try fields.optionalString("wake_word_name"), restartOnEnd: try fields.optionalBool("restart_on_end") ?? false))
        case "audio-start": self = .audioStart(try fields.format(), timestamp: try fields.optionalInt("timestamp"))
        case "audio-chunk":
            let format = try fields.format()
            guard frame.payload.count % (format.width * format.channels) == 0 else {
                throw .badField(
                    type: frame.type, field: "payload",
                    expected: "whole frames of \(format.width * format.channels) bytes (got \(frame.payload.count) bytes)")
            }
            self = .audioChunk(format, timestamp: try fields.optionalInt("timestamp"), audio: frame.payload)
        case "audio-stop": self = .audioStop(timestamp: try fields.optionalInt("timestamp"))
        case "detect": self = .detect(names: try fields.optionalStrings("names"))
        case "detection": self = .detection(name: try fields.optionalString("name"), timestamp: try fields.optionalInt("timestamp"))
        case "not-detected": self = .notDetected
        case "voice-started": self = .voiceStarted(timestamp: try fields.optionalInt("timestamp"))
        case "voice-stopped": self = .voiceStopped(timestamp: try fields.optionalInt("timestamp"))
        case "played": self = .played
        case "transcript": self = .transcript(text: try fields.string("text"))
        case "synthesize": self = .synthesize(text: try fields.string("text"))
        case "error": self = .error(text: try fields.string("text"), code: try fields.optionalString("code"))
        default:
            if let change = WyomingTimer.Change(rawValue: frame.type) {
                self = .timer(
                    WyomingTimer(
                        change: change, id: try fields.string("id"), totalSeconds: try fields.optionalInt("total_seconds"),
                        name: try fields.optionalString("name"), isActive: try fields.optionalBool("is_active")))
            } else if WyomingEventType.passedOn.contains(frame.type) {
                self = .other(frame)
            } else {
                throw .unknownType(frame.type)
            }
        }
    }

    /// The frame to send.
    public var frame: WyomingFrame {
        var data: [String: WyomingJSON] = [:]
        var payload: [UInt8] = []
        func put(_ key: String, _ value: String?) { if let value { data[key] = .string(value) } }
        func put(_ key: String, _ value: Int?) { if let value { data[key] = .int(value) } }
        switch self {
        case .describe, .runSatellite, .pauseSatellite, .notDetected, .played: break
        case .info(let info): data = info.json
        case .ping(let text), .pong(let text): put("text", text)
        case .runPipeline(let run):
            data = ["start_stage": .string(run.start.rawValue), "end_stage": .string(run.end.rawValue), "restart_on_end": .bool(run.restartOnEnd)]
            put("wake_word_name", run.wakeWordName)
        case .audioStart(let format, let timestamp):
            data = format.json
            put("timestamp", timestamp)
        case .audioChunk(let format, let timestamp, let audio):
            data = format.json
            put("timestamp", timestamp)
            payload = audio
        case .audioStop(let timestamp), .voiceStarted(let timestamp), .voiceStopped(let timestamp): put("timestamp", timestamp)
        case .detect(let names): if let names { data["names"] = .array(names.map { .string($0) }) }
        case .detection(let name, let timestamp):
            put("name", name)
            put("timestamp", timestamp)
        case .transcript(let text), .synthesize(let text): put("text", text)
        case .error(let text, let code):
            put("text", text)
            put("code", code)
        case .timer(let timer):
            put("id", timer.id)
            put("total_seconds", timer.totalSeconds)
            put("name", timer.name)
            if let active = timer.isActive { data["is_active"] = .bool(active) }
        case .other(let frame): return frame
        }
        return WyomingFrame(type: type, data: data, payload: payload)
    }
}

/// Reads typed fields out of a frame's data, naming the field and what it should be.
private struct Fields {
    let type: String
    let data: [String: WyomingJSON]

    /// The field `key` read by `read`: `nil` when it is absent or null, an error naming what
    /// was `expected` when it holds something else.
    private func optional<Value>(_ key: String, _ expected: String, _ read: (WyomingJSON) -> Value?)
        throws(WyomingProtocolError) -> Value?
    {
        guard let value = data[key], value != .null else { return nil }
        guard let read = read(value) else { throw .badField(type: type, field: key, expected: expected) }
        return read
    }

    /// The field `key` read by `read`; absent, null or anything else is an error naming what was `expected`.
    private func required<Value>(_ key: String, _ expected: String, _ read: (WyomingJSON) -> Value?)
        throws(WyomingProtocolError) -> Value
    {
        guard let value = try optional(key, expected, read) else { throw .badField(type: type, field: key, expected: expected) }
        return value
    }

    func string(_ key: String) throws(WyomingProtocolError) -> String { try required(key, "a string", \.stringValue) }

    func optionalString(_ key: String) throws(WyomingProtocolError) -> String? { try optional(key, "a string", \.stringValue) }

    func optionalStrings(_ key: String) throws(WyomingProtocolError) -> [String]? {
        try optional(key, "an array of strings") { value in
            guard let array = value.arrayValue else { return nil }
            let items = array.compactMap(\.stringValue)
            return items.count == array.count ? items : nil
        }
    }

    func int(_ key: String) throws(WyomingProtocolError) -> Int { try required(key, "a whole number", \.intValue) }

    func optionalInt(_ key: String) throws(WyomingProtocolError) -> Int? { try optional(key, "a whole number", \.intValue) }

    func optionalBool(_ key: String) throws(WyomingProtocolError) -> Bool? { try optional(key, "true or false", \.boolValue) }

    func stage(_ key: String) throws(WyomingProtocolError) -> WyomingPipelineRun.Stage {
        let name = try string(key)
        guard let stage = WyomingPipelineRun.Stage(rawValue: name) else {
            let stages = WyomingPipelineRun.Stage.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badField(type: type, field: key, expected: "one of \(stages) (got \"\(name)\")")
        }
        return stage
    }

    func format() throws(WyomingProtocolError) -> WyomingAudioFormat {
        let format = WyomingAudioFormat(rate: try int("rate"), width: try int("width"), channels: try int("channels"))
        try format.validate(in: type)
        return format
    }
}
