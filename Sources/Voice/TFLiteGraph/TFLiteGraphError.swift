/// Why a `.tflite` file cannot be loaded or run, always naming the file.
public struct TFLiteGraphError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// The file ends before a structure it points to (cut short, or not a `.tflite` file).
        case truncated(offset: Int, needed: Int, size: Int)
        /// Readable, but not a model this reader handles (no subgraph, bad index, quantised…).
        case invalidModel(String)
        /// An operator this reader does not implement.
        case unsupportedOperator(name: String, code: Int, subgraph: Int, index: Int)
        /// The caller gave an input the model's signature does not accept.
        case wrongInput(String)
        /// An operator met operands it cannot combine.
        case invalidOperands(operatorName: String, subgraph: Int, index: Int, reason: String)
        case unreadable(String)

        public var description: String {
            switch self {
            case .truncated(let offset, let needed, let size):
                "truncated or not a .tflite model: needs \(needed) bytes at offset \(offset) but the file has \(size)"
            case .invalidModel(let reason): "not a usable .tflite model: \(reason)"
            case .unsupportedOperator(let name, let code, let subgraph, let index):
                "unsupported operator \(name) (builtin code \(code)) at subgraph \(subgraph) operator \(index); supported: "
                    + BuiltinOperator.allCases.map(\.name).sorted().joined(separator: ", ")
            case .wrongInput(let reason): "wrong input: \(reason)"
            case .invalidOperands(let name, let subgraph, let index, let reason):
                "\(name) at subgraph \(subgraph) operator \(index): \(reason)"
            case .unreadable(let reason): "cannot read: \(reason)"
            }
        }
    }

    /// The model's file name (or the name given for in-memory bytes).
    public var file: String
    public var problem: Problem

    public init(file: String, problem: Problem) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}
