import Foundation

/// Seed 001's Data Sync lists: the phone's five most recent notes or todos, a JSON array of
/// at most 512 bytes. A write replaces the list the host keeps (stored whole, read back as
/// written); this checks that each item has the seed's shape (its REST API's `GET /notes` and
/// `GET /todos` items) before anything is stored.
public enum DataSyncList: String, Sendable, Hashable, CaseIterable {
    case notes, todos

    /// How many items a list holds (seed 001: "Returns 5 most recent").
    public static let capacity = 5

    public var characteristic: CompanionCharacteristic { self == .notes ? .notesData : .todosData }

    /// The seed's fields of an item: the one it must have (a non-empty string), and all it may have.
    var required: String { self == .notes ? "content" : "task" }
    var fields: [String] { self == .notes ? ["content", "id", "timestamp"] : ["task", "id", "priority", "completed", "timestamp"] }

    /// An item's fields with their types (the decoder refuses a number for a string or a boolean).
    private struct Note: Decodable { var content: String; var id: String?; var timestamp: String? }
    private struct Todo: Decodable {
        var task: String; var id: String?; var priority: Priority?; var completed: Bool?; var timestamp: String?
        enum Priority: String, Decodable { case low, medium, high }
    }

    /// Checks a written JSON array (already known to be one) item by item; the refusal names
    /// the item and the field, as `org.bluez.Error.InvalidArguments`.
    public func check(_ data: Data) throws(GATTError) {
        let title = characteristic.title
        guard let items = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else {
            throw GATTError(.invalidArguments, "\(title) is a JSON array")
        }
        guard items.count <= Self.capacity else {
            throw GATTError(.invalidArguments, "\(title) holds the \(Self.capacity) most recent \(rawValue); got \(items.count)")
        }
        for (index, item) in items.enumerated() {
            guard let object = item as? [String: Any] else {
                throw GATTError(.invalidArguments, "\(title) item \(index) is not a JSON object")
            }
            try check(object, index: index)
        }
        try checkTypes(data)
    }

    private func check(_ object: [String: Any], index: Int) throws(GATTError) {
        let title = characteristic.title
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw GATTError(.invalidArguments, "\(title) item \(index): unknown field \"\(unknown.prefix(20))\" (known: \(fields.joined(separator: ", ")))")
        }
        guard let value = object[required] as? String, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw GATTError(.invalidArguments, "\(title) item \(index) needs \"\(required)\", a non-empty string")
        }
    }

    /// The fields' types, item by item (the decoder takes no number for a string or a boolean).
    private func checkTypes(_ data: Data) throws(GATTError) {
        do {
            switch self {
            case .notes: _ = try JSONDecoder().decode([Note].self, from: data)
            case .todos: _ = try JSONDecoder().decode([Todo].self, from: data)
            }
        } catch {
            var path: [any CodingKey] = []
            if case .typeMismatch(_, let context) = error as? DecodingError { path = context.codingPath }
            if case .dataCorrupted(let context) = error as? DecodingError { path = context.codingPath }
            let item = path.first?.intValue.map { "item \($0)" } ?? "an item"
            let field = path.dropFirst().first.map { " (\($0.stringValue))" } ?? ""
            let rule =
                self == .notes
                ? "id and timestamp are strings" : "id and timestamp are strings, priority low, medium or high, completed true or false"
            throw GATTError(.invalidArguments, "\(characteristic.title) \(item)\(field): \(rule)")
        }
    }
}
