/// One event of a text/event-stream: its id, its type and its data.
struct ServerSentEvent: Sendable, Equatable {
    var id: String?
    var event: String
    var data: String

    /// Parses a stream's lines, handing out an event at each blank line (comments and
    /// `retry:` are skipped). Pure: bytes in, events out.
    struct Parser {
        private var pending = ""
        private var id: String?
        private var event = "message"
        private var data: [String] = []

        mutating func feed(_ text: String) -> [ServerSentEvent] {
            pending += text
            var events: [ServerSentEvent] = []
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline]).trimmingSuffix("\r")
                pending = String(pending[pending.index(after: newline)...])
                if line.isEmpty {
                    if !data.isEmpty { events.append(ServerSentEvent(id: id, event: event, data: data.joined(separator: "\n"))) }
                    event = "message"
                    data = []
                    continue
                }
                if line.hasPrefix(":") { continue }
                let (field, value) = Self.split(line)
                switch field {
                case "id": id = value
                case "event": event = value
                case "data": data.append(value)
                default: continue
                }
            }
            return events
        }

        static func split(_ line: String) -> (String, String) {
            guard let colon = line.firstIndex(of: ":") else { return (line, "") }
            var value = line[line.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
            return (String(line[..<colon]), String(value))
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
