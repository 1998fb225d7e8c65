/// Operands an operator cannot combine; the graph adds the file, subgraph and operator.
struct KernelError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
