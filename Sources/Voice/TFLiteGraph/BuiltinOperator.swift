/// The `.tflite` builtin operators this reader implements, by their schema code.
enum BuiltinOperator: Int, CaseIterable, Sendable {
    case add = 0, averagePool2D = 1, concatenation = 2, conv2D = 3, fullyConnected = 9, logistic = 14
    case maxPool2D = 17, mul = 18, relu = 19, relu6 = 21, reshape = 22, softmax = 25, tanh = 28
    case pad = 34, transpose = 39, mean = 40, sub = 41, div = 42, squeeze = 43, exp = 47, maximum = 55
    case minimum = 57, greaterEqual = 62, expandDims = 70, log = 73, sum = 74, sqrt = 75, rsqrt = 76
    case reduceMax = 82, leakyRelu = 98, ifThenElse = 118, batchMatMul = 126

    /// The schema's name, e.g. `CONV_2D`.
    var name: String { Self.name(ofCode: rawValue) }

    /// The schema's name of any builtin code, for messages about operators not implemented here.
    static func name(ofCode code: Int) -> String {
        let names: [Int: String] = [
            0: "ADD", 1: "AVERAGE_POOL_2D", 2: "CONCATENATION", 3: "CONV_2D", 4: "DEPTHWISE_CONV_2D", 6: "DEQUANTIZE",
            9: "FULLY_CONNECTED", 14: "LOGISTIC", 16: "LSTM", 17: "MAX_POOL_2D", 18: "MUL", 19: "RELU", 21: "RELU6",
            22: "RESHAPE", 25: "SOFTMAX", 28: "TANH", 32: "CUSTOM", 34: "PAD", 39: "TRANSPOSE", 40: "MEAN", 41: "SUB",
            42: "DIV", 43: "SQUEEZE", 44: "UNIDIRECTIONAL_SEQUENCE_RNN", 45: "STRIDED_SLICE", 47: "EXP", 49: "SPLIT",
            53: "CAST", 55: "MAXIMUM", 57: "MINIMUM", 62: "GREATER_EQUAL", 65: "SLICE", 70: "EXPAND_DIMS", 73: "LOG",
            74: "SUM", 75: "SQRT", 76: "RSQRT", 77: "SHAPE", 82: "REDUCE_MAX", 83: "PACK", 88: "UNPACK", 98: "LEAKY_RELU",
            114: "QUANTIZE", 118: "IF", 119: "WHILE", 126: "BATCH_MATMUL",
        ]
        return names[code] ?? "builtin \(code)"
    }
}

/// Fused activations of the schema (`ActivationFunctionType`).
enum FusedActivation: Int8, Sendable {
    case none = 0, relu = 1, reluMinus1To1 = 2, relu6 = 3, tanh = 4

    func apply(_ values: inout [Float]) {
        guard self != .none else { return }
        values.withUnsafeMutableBufferPointer { apply($0) }
    }

    func apply(_ v: UnsafeMutableBufferPointer<Float>) {
        switch self {
        case .none: return
        case .relu: for i in v.indices { v[i] = Swift.max(v[i], 0) }
        case .reluMinus1To1: for i in v.indices { v[i] = Swift.min(Swift.max(v[i], -1), 1) }
        case .relu6: for i in v.indices { v[i] = Swift.min(Swift.max(v[i], 0), 6) }
        case .tanh: for i in v.indices { v[i] = _tanh(v[i]) }
        }
    }
}

