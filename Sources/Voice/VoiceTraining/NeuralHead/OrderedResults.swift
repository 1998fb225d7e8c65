import Synchronization

/// Results that workers finish in any order, read back in order.
final class OrderedResults<Value: Sendable, Failure: Error>: Sendable {
    private let results: Mutex<[Result<Value, Failure>?]>

    init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }

    func set(_ result: Result<Value, Failure>, at index: Int) {
        results.withLock { $0[index] = result }
    }

    /// Every result, or the first error (in order).
    func all() throws(Failure) -> [Value] {
        let results = self.results.withLock { $0 }
        var values: [Value] = []
        for result in results {
            switch result {
            case .success(let value): values.append(value)
            case .failure(let error): throw error
            case nil: preconditionFailure("a worker never reported")
            }
        }
        return values
    }
}
