/// One operator of a subgraph with its options read from the file, ready to run.
struct Operation {
    enum Kind {
        case conv2D(Conv2DParameters)
        case fullyConnected(activation: FusedActivation, keepDims: Bool)
        case batchMatMul(adjointLeft: Bool, adjointRight: Bool)
        case binary(BinaryOperation, FusedActivation)
        case unary(UnaryOperation)
        case leakyRelu(alpha: Float)
        case pool(PoolParameters)
        case pad
        case reshape(newShape: [Int]?)
        case squeeze(axes: [Int])
        case expandDims
        case transpose
        case reduce(ReduceOperation, keepDims: Bool)
        case concatenation(axis: Int, activation: FusedActivation)
        case softmax(beta: Float)
        case ifThenElse(then: Int, else: Int)
    }

    var kind: Kind
    var builtin: BuiltinOperator
    var inputs: [Int]
    var outputs: [Int]
    /// Its index among the subgraph's operators in the file (for messages: operators folded
    /// into others when the model loads leave gaps).
    var position = 0

    /// Reads the options of `info` (its `builtin_options` table, fields by schema index).
    init(_ info: TFLiteModel.OperatorInfo, builtin: BuiltinOperator) throws(FlatBufferReader.OutOfBounds) {
        self.builtin = builtin
        inputs = info.inputs
        outputs = info.outputs
        let options = info.options
        func activation(_ field: Int) throws(FlatBufferReader.OutOfBounds) -> FusedActivation {
            FusedActivation(rawValue: try options?.scalar(field, default: Int8(0)) ?? 0) ?? .none
        }
        func int(_ field: Int, _ value: Int32) throws(FlatBufferReader.OutOfBounds) -> Int {
            Int(try options?.scalar(field, default: value) ?? value)
        }
        func bool(_ field: Int) throws(FlatBufferReader.OutOfBounds) -> Bool { try options?.bool(field) ?? false }
        switch builtin {
        case .conv2D:
            // Conv2DOptions: padding, stride_w, stride_h, fused_activation_function, dilation_w, dilation_h.
            kind = .conv2D(Conv2DParameters(
                samePadding: try int(0, 0) == 0, strideWidth: try int(1, 1), strideHeight: try int(2, 1),
                dilationWidth: try int(4, 1), dilationHeight: try int(5, 1), activation: try activation(3)))
        case .maxPool2D, .averagePool2D:
            // Pool2DOptions: padding, stride_w, stride_h, filter_width, filter_height, fused_activation_function.
            kind = .pool(PoolParameters(
                isMax: builtin == .maxPool2D, samePadding: try int(0, 0) == 0, strideWidth: try int(1, 1),
                strideHeight: try int(2, 1), filterWidth: try int(3, 1), filterHeight: try int(4, 1), activation: try activation(5)))
        case .fullyConnected:
            // FullyConnectedOptions: fused_activation_function, weights_format, keep_num_dims.
            kind = .fullyConnected(activation: try activation(0), keepDims: try bool(2))
        case .batchMatMul: kind = .batchMatMul(adjointLeft: try bool(0), adjointRight: try bool(1))
        case .add: kind = .binary(.add, try activation(0))
        case .sub: kind = .binary(.subtract, try activation(0))
        case .mul: kind = .binary(.multiply, try activation(0))
        case .div: kind = .binary(.divide, try activation(0))
        case .maximum: kind = .binary(.maximum, .none)
        case .minimum: kind = .binary(.minimum, .none)
        case .greaterEqual: kind = .binary(.greaterEqual, .none)
        case .logistic: kind = .unary(.logistic)
        case .log: kind = .unary(.log)
        case .exp: kind = .unary(.exp)
        case .sqrt: kind = .unary(.sqrt)
        case .rsqrt: kind = .unary(.rsqrt)
        case .relu: kind = .unary(.relu)
        case .relu6: kind = .unary(.relu6)
        case .tanh: kind = .unary(.tanh)
        case .leakyRelu: kind = .leakyRelu(alpha: try options?.float(0, default: 0.2) ?? 0.2)
        case .pad: kind = .pad
        case .reshape:
            // ReshapeOptions.new_shape, used when the shape is not given as a second input.
            kind = .reshape(newShape: try options?.int32s(0).map { $0.map(Int.init) })
        case .squeeze: kind = .squeeze(axes: (try options?.int32s(0) ?? []).map(Int.init))
        case .expandDims: kind = .expandDims
        case .transpose: kind = .transpose
        case .mean: kind = .reduce(.mean, keepDims: try bool(0))
        case .sum: kind = .reduce(.sum, keepDims: try bool(0))
        case .reduceMax: kind = .reduce(.max, keepDims: try bool(0))
        case .concatenation: kind = .concatenation(axis: try int(0, 0), activation: try activation(1))
        case .softmax: kind = .softmax(beta: try options?.float(0, default: 1) ?? 1)
        case .ifThenElse: kind = .ifThenElse(then: try int(0, 0), else: try int(1, 0))
        }
    }
}

struct Conv2DParameters {
    var samePadding: Bool
    var strideWidth: Int
    var strideHeight: Int
    var dilationWidth: Int
    var dilationHeight: Int
    var activation: FusedActivation
    /// Set when the filter operand holds the weights as columns, `[height·width·channels, out]`
    /// (prepared once when the model loads, ``ConvolutionFilter``): the filter's own shape,
    /// `[out, height, width, channels]`. `nil`: the operand is the file's OHWI filter.
    var filterShape: [Int]? = nil
    /// Set when the filter is one part of a windowed DFT (``FourierFilter``), recognised when the
    /// model loads: the operator runs as an FFT per frame, and the filter operand may be gone.
    var fourier: FourierFilter? = nil
    /// Element-wise operators folded in when the model loads, applied after `activation`.
    var epilogue: [Epilogue] = []

    /// Adds `bias` to each row of `output`, then applies the activation and the epilogue.
    func finish(_ output: inout [Float], bias: Tensor?) {
        if let bias { Convolution.addRows(bias.values, to: &output) }
        activation.apply(&output)
        if !epilogue.isEmpty { output.withUnsafeMutableBufferPointer { Epilogue.apply(epilogue, to: $0) } }
    }
}

struct PoolParameters {
    var isMax: Bool
    var samePadding: Bool
    var strideWidth: Int
    var strideHeight: Int
    var filterWidth: Int
    var filterHeight: Int
    var activation: FusedActivation
}

enum BinaryOperation {
    case add, subtract, multiply, divide, maximum, minimum, greaterEqual
}

enum UnaryOperation {
    case logistic, log, exp, sqrt, rsqrt, relu, relu6, tanh
}

enum ReduceOperation {
    case mean, sum, max
}
