import Foundation
import TestKit
import Testing
@testable import TFLiteGraph

@Suite("TFLiteGraph kernels against direct definitions", .oneAtATime)
struct KernelTests {
    /// A direct NHWC convolution, the definition the im2col + BLAS path must reproduce.
    static func directConvolution(_ input: Tensor, _ filter: Tensor, _ bias: [Float], _ p: Conv2DParameters) -> Tensor {
        let (n, h, w, c) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (o, kh, kw) = (filter.shape[0], filter.shape[1], filter.shape[2])
        let (oh, top) = Convolution.outputSize(input: h, filter: kh, stride: p.strideHeight, dilation: p.dilationHeight, same: p.samePadding)
        let (ow, left) = Convolution.outputSize(input: w, filter: kw, stride: p.strideWidth, dilation: p.dilationWidth, same: p.samePadding)
        var out = [Float](repeating: 0, count: n * oh * ow * o)
        for b in 0..<n { for y in 0..<oh { for x in 0..<ow { for f in 0..<o {
            var sum = bias[f]
            for ky in 0..<kh { for kx in 0..<kw {
                let iy = y * p.strideHeight - top + ky * p.dilationHeight, ix = x * p.strideWidth - left + kx * p.dilationWidth
                guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                for ch in 0..<c { sum += input.values[((b * h + iy) * w + ix) * c + ch] * filter.values[((f * kh + ky) * kw + kx) * c + ch] }
            } }
            out[((b * oh + y) * ow + x) * o + f] = sum
        } } } }
        return Tensor(shape: [n, oh, ow, o], values: out)
    }

    static func ramp(_ shape: [Int], scale: Float = 0.1) -> Tensor {
        let count = shape.reduce(1, *)
        return Tensor(shape: shape, values: (0..<count).map { Float(($0 * 7919) % 23 - 11) * scale })
    }

    @Test(arguments: [(true, 1, 1, 1), (false, 1, 1, 1), (true, 2, 1, 1), (false, 2, 3, 1), (true, 1, 1, 2)])
    func convolution(same: Bool, strideH: Int, strideW: Int, dilation: Int) throws {
        let p = Conv2DParameters(samePadding: same, strideWidth: strideW, strideHeight: strideH,
                                 dilationWidth: dilation, dilationHeight: dilation, activation: .none)
        let input = Self.ramp([2, 9, 7, 3]), filter = Self.ramp([4, 3, 2, 3], scale: 0.05)
        let bias: [Float] = [0.5, -0.25, 0, 1]
        let ours = try Convolution.conv2D(input, filter: filter, bias: Tensor(shape: [4], values: bias), p)
        let expected = Self.directConvolution(input, filter, bias, p)
        #expect(ours.shape == expected.shape)
        #expect(zip(ours.values, expected.values).allSatisfy { abs($0 - $1) < 1e-4 })
    }

    /// The filter stored as the product's columns when the model loads gives the same result as
    /// the file's OHWI filter.
    @Test(arguments: [(true, 1, 1, 1), (false, 2, 3, 1), (true, 1, 1, 2)])
    func convolutionOnFilterColumns(same: Bool, strideH: Int, strideW: Int, dilation: Int) throws {
        var p = Conv2DParameters(samePadding: same, strideWidth: strideW, strideHeight: strideH,
                                 dilationWidth: dilation, dilationHeight: dilation, activation: .relu)
        let input = Self.ramp([2, 9, 7, 3]), filter = Self.ramp([4, 3, 2, 3], scale: 0.05)
        let bias = Tensor(shape: [4], values: [0.5, -0.25, 0, 1])
        let fromFile = try Convolution.conv2D(input, filter: filter, bias: bias, p)
        let columns = Convolution.columns(of: filter)
        #expect(columns.shape == [18, 4])
        #expect(columns.values[1] == filter.values[18])  // column 1 starts with filter 1's first weight
        p.filterShape = filter.shape
        let fromColumns = try Convolution.conv2D(input, filter: columns, bias: bias, p)
        #expect(fromColumns.shape == fromFile.shape)
        #expect(zip(fromColumns.values, fromFile.values).allSatisfy { abs($0 - $1) < 1e-5 })
    }

    /// The real (`cos`) or imaginary (`-sin`) part of an N-point DFT with `window`, as an OHWI
    /// filter `[N/2+1, 1, N, 1]`: what openWakeWord's mel model convolves the audio with.
    static func fourierFilter(_ part: FourierFilter.Part, window: [Float]) -> Tensor {
        let size = window.count, bins = size / 2 + 1
        var values: [Float] = []
        for bin in 0..<bins {
            for tap in 0..<size {
                let phase = 2 * Double.pi * Double(bin * tap) / Double(size)
                values.append(window[tap] * Float(part == .real ? cos(phase) : -sin(phase)))
            }
        }
        return Tensor(shape: [bins, 1, size, 1], values: values)
    }

    /// A Hann window of 24 taps centred in 32, as librosa pads a shorter window to the FFT size.
    static let paddedHann: [Float] = [Float](repeating: 0, count: 4)
        + (0..<24).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / 24)) } + [Float](repeating: 0, count: 4)

    /// A filter that is one part of a windowed DFT runs as FFTs and gives what its product gives.
    @Test(arguments: [FourierFilter.Part.real, .imaginary])
    func fourierFiltersRunAsTransformsGiveTheProduct(part: FourierFilter.Part) throws {
        let filter = Self.fourierFilter(part, window: Self.paddedHann)
        let fourier = try #require(FourierFilter.recognise(filter))
        #expect(fourier.part == part)
        // The imaginary part's filters are zero at taps 0 and N/2 whatever the window: it is 0 there.
        let determined = (0..<32).filter { part == .real || $0 % 16 != 0 }
        #expect(determined.allSatisfy { abs(fourier.window[$0] - Self.paddedHann[$0]) < 1e-5 })
        var p = Conv2DParameters(samePadding: false, strideWidth: 10, strideHeight: 1, dilationWidth: 1, dilationHeight: 1, activation: .none)
        let signal = (0..<(2 * 2 * 100)).map { Float(sin(Double($0) * 0.37) + 0.3 * cos(Double($0) * 1.9)) }
        let input = Tensor(shape: [2, 2, 100, 1], values: signal)
        let bias = Tensor(shape: [17], values: (0..<17).map { Float($0) * 0.01 })
        let product = try Convolution.conv2D(input, filter: filter, bias: bias, p)
        p.fourier = fourier
        let transformed = try Convolution.fourier(input, fourier, bias: bias, p)
        #expect(transformed.shape == product.shape)
        #expect(transformed.shape == [2, 2, 7, 17])
        let worst = zip(transformed.values, product.values).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-4, "largest difference \(worst)")
    }

    /// Filters a weight away from a transform, of another size or of other weights are convolved as they are.
    @Test func otherFiltersAreNotTakenForTransforms() {
        var nudged = Self.fourierFilter(.real, window: Self.paddedHann)
        nudged.values[3 * 32 + 10] += 0.01
        #expect(FourierFilter.recognise(nudged) == nil)
        #expect(FourierFilter.recognise(Self.ramp([17, 1, 32, 1])) == nil)
        #expect(FourierFilter.recognise(Self.ramp([16, 1, 32, 1])) == nil)
        #expect(FourierFilter.recognise(Tensor(shape: [17, 1, 32, 1])) == nil)
        let twoChannels = Tensor(shape: [17, 1, 16, 2], values: Self.fourierFilter(.real, window: Self.paddedHann).values)
        #expect(FourierFilter.recognise(twoChannels) == nil)
    }

    @Test func filterColumnsOfAnotherFilterAreRefused() {
        var p = Conv2DParameters(samePadding: true, strideWidth: 1, strideHeight: 1, dilationWidth: 1, dilationHeight: 1, activation: .none)
        p.filterShape = [4, 3, 2, 3]
        #expect(throws: KernelError.self) { try Convolution.conv2D(Self.ramp([1, 5, 5, 3]), filter: Self.ramp([4, 18]), bias: nil, p) }
    }

    @Test func convolutionRejectsChannelMismatch() {
        let p = Conv2DParameters(samePadding: true, strideWidth: 1, strideHeight: 1, dilationWidth: 1, dilationHeight: 1, activation: .none)
        #expect(throws: KernelError.self) { try Convolution.conv2D(Self.ramp([1, 4, 4, 2]), filter: Self.ramp([1, 3, 3, 3]), bias: nil, p) }
    }

    @Test func fullyConnectedAndBatchMatMul() throws {
        let input = Tensor(shape: [2, 3], values: [1, 2, 3, 4, 5, 6])
        let weights = Tensor(shape: [2, 3], values: [1, 0, -1, 0.5, 0.5, 0.5])
        let fc = try MatrixProduct.fullyConnected(input, weights: weights, bias: Tensor(shape: [2], values: [10, -3]), activation: .relu, keepDims: false)
        #expect(fc == Tensor(shape: [2, 2], values: [8, 0, 8, 4.5]))
        let rhs = Tensor(shape: [3, 2], values: [1, 0, -1, 0.5, 0.5, 0.5])
        let product = try MatrixProduct.batchMatMul(Tensor(shape: [1, 2, 3], values: input.values), rhs, adjointLeft: false, adjointRight: false)
        #expect(product == Tensor(shape: [1, 2, 2], values: [0.5, 2.5, 2, 5.5]))
        let adjoint = try MatrixProduct.batchMatMul(input, weights, adjointLeft: false, adjointRight: true)
        #expect(adjoint.values == [-2, 3, -2, 7.5])
    }

    @Test func broadcastingBinary() throws {
        let a = Tensor(shape: [2, 3], values: [1, 2, 3, 4, 5, 6])
        #expect(try Elementwise.binary(.subtract, a, Tensor(shape: [2, 1], values: [1, 4]), activation: .none).values == [0, 1, 2, 0, 1, 2])
        #expect(try Elementwise.binary(.multiply, a, Tensor(shape: [3], values: [1, 0, -1]), activation: .none).values == [1, 0, -3, 4, 0, -6])
        #expect(try Elementwise.binary(.add, Tensor(shape: [], values: [-3]), a, activation: .relu).values == [0, 0, 0, 1, 2, 3])
        let ge = try Elementwise.binary(.greaterEqual, a, Tensor(shape: [], values: [3]), activation: .none)
        #expect(ge.values == [0, 0, 1, 1, 1, 1] && ge.elementType == .bool)
        #expect(throws: KernelError.self) { try Elementwise.binary(.add, a, Tensor(shape: [2], values: [1, 2]), activation: .none) }
    }

    @Test func reductions() throws {
        let a = Tensor(shape: [2, 3], values: [1, 2, 3, 4, 5, 9])
        #expect(try Reduction.reduce(.mean, a, axes: [-1], keepDims: true) == Tensor(shape: [2, 1], values: [2, 6]))
        #expect(try Reduction.reduce(.max, a, axes: [0], keepDims: false) == Tensor(shape: [3], values: [4, 5, 9]))
        #expect(try Reduction.reduce(.max, a, axes: [0, 1], keepDims: false) == Tensor(shape: [], values: [9]))
    }

    @Test func movingValues() throws {
        let a = Tensor(shape: [2, 3], values: [1, 2, 3, 4, 5, 6])
        #expect(try ShapeOperations.transpose(a, permutation: [1, 0]) == Tensor(shape: [3, 2], values: [1, 4, 2, 5, 3, 6]))
        #expect(try ShapeOperations.pad(a, paddings: Tensor(shape: [2, 2], values: [0, 1, 1, 0])).values == [0, 1, 2, 3, 0, 4, 5, 6, 0, 0, 0, 0])
        #expect(try ShapeOperations.reshape(a, to: [3, -1]).shape == [3, 2])
        #expect(try ShapeOperations.expandDims(a, axis: -1).shape == [2, 3, 1])
        #expect(try ShapeOperations.squeeze(Tensor(shape: [1, 2, 1], values: [1, 2]), axes: []).shape == [2])
        #expect(try ShapeOperations.concatenate([a, a], axis: 1).values == [1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6])
        #expect(throws: KernelError.self) { try ShapeOperations.reshape(a, to: [4, -1]) }
    }

    @Test func maxPool() throws {
        let input = Tensor(shape: [1, 2, 4, 1], values: [1, 5, 2, 0, 3, 4, 8, 7])
        let p = PoolParameters(isMax: true, samePadding: false, strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2, activation: .none)
        #expect(try Pooling.pool(input, p) == Tensor(shape: [1, 1, 2, 1], values: [5, 8]))
    }

    /// PAD, TRANSPOSE and the reductions' contiguous paths against the definitions.
    @Test func padTransposeAndReductionsMatchTheirDefinitions() throws {
        let input = Self.ramp([2, 3, 4, 2])
        func at(_ t: Tensor, _ index: [Int]) -> Float { t.values[zip(index, Tensor.strides(t.shape)).map(*).reduce(0, +)] }
        let amounts = [0, 1, 2, 0, 1, 1, 0, 3]
        let padded = try ShapeOperations.pad(input, paddings: Tensor(shape: [4, 2], values: amounts.map(Float.init)))
        #expect(padded.shape == [3, 5, 6, 5])
        for (i, value) in padded.values.enumerated() {
            var rest = i, index = [Int](repeating: 0, count: 4)
            for axis in (0..<4).reversed() { index[axis] = rest % padded.shape[axis]; rest /= padded.shape[axis] }
            let source = (0..<4).map { index[$0] - amounts[2 * $0] }
            let inside = (0..<4).allSatisfy { source[$0] >= 0 && source[$0] < input.shape[$0] }
            #expect(value == (inside ? at(input, source) : 0), "padded \(index)")
        }
        #expect(throws: KernelError.self) { try ShapeOperations.pad(input, paddings: Tensor(shape: [4, 2], values: [0, 0, -1, 0, 0, 0, 0, 0])) }

        for permutation in [[0, 2, 1, 3], [3, 1, 0, 2], [1, 0, 2, 3]] {
            let moved = try ShapeOperations.transpose(input, permutation: permutation)
            #expect(moved.shape == permutation.map { input.shape[$0] })
            for (i, value) in moved.values.enumerated() {
                var rest = i, index = [Int](repeating: 0, count: 4)
                for axis in (0..<4).reversed() { index[axis] = rest % moved.shape[axis]; rest /= moved.shape[axis] }
                var source = [Int](repeating: 0, count: 4)
                for (axis, from) in permutation.enumerated() { source[from] = index[axis] }
                #expect(value == at(input, source), "permutation \(permutation) at \(index)")
            }
        }
        // Moving only axes of one value keeps the values as they are.
        let column = Self.ramp([1, 5, 1])
        #expect(try ShapeOperations.transpose(column, permutation: [2, 1, 0]) == Tensor(shape: [1, 5, 1], values: column.values))
        #expect(try ShapeOperations.transpose(column, permutation: [0, 2, 1]) == Tensor(shape: [1, 1, 5], values: column.values))

        // Trailing axes (the contiguous path) and others (the general one), against sums by hand.
        let cube = Self.ramp([2, 3, 4])
        func reference(_ operation: ReduceOperation, axes: Set<Int>) -> [Float] {
            var cells = [Int: [Float]]()
            for (i, value) in cube.values.enumerated() {
                let index = [i / 12, i / 4 % 3, i % 4]
                let key = (0..<3).map { axes.contains($0) ? 0 : index[$0] }.reduce(0) { $0 * 4 + $1 }
                cells[key, default: []].append(value)
            }
            return cells.keys.sorted().map { key in
                let run = cells[key]!
                switch operation {
                case .max: return run.reduce(-.infinity) { Swift.max($0, $1) }
                case .sum: return run.reduce(0, +)
                case .mean: return run.reduce(0, +) / Float(run.count)
                }
            }
        }
        for axes in [[2], [1, 2], [0, 1, 2], [0], [0, 2], [1]] {
            for operation in [ReduceOperation.max, .sum, .mean] {
                let reduced = try Reduction.reduce(operation, cube, axes: axes, keepDims: false)
                #expect(reduced.values == reference(operation, axes: Set(axes)), "\(operation) over \(axes)")
            }
        }
        #expect(try Reduction.reduce(.sum, Tensor(shape: [2, 1, 3], values: [1, 2, 3, 4, 5, 6]), axes: [1, 2], keepDims: true)
            == Tensor(shape: [2, 1, 1], values: [6, 15]))
    }

    /// The folded element-wise steps in place and the bias's vector loop give the scalar
    /// definitions' bits, signed zeros, NaN and infinities included, tails of fewer than 8 too.
    @Test func vectorLoopsGiveTheScalarBits() {
        let specials: [Float] = [0, -0.0, .nan, .infinity, -.infinity, 0.5, -0.5, 1e-40, -1e-40]
        let values = (0..<45).map { i in i < specials.count ? specials[i] : Float((i * 7919) % 37 - 18) * 0.137 }
        func bits(_ v: [Float]) -> [UInt32] { v.map(\.bitPattern) }
        func inPlace(_ body: (UnsafeMutableBufferPointer<Float>) -> Void) -> [Float] {
            var v = values
            v.withUnsafeMutableBufferPointer { body($0) }
            return v
        }
        #expect(bits(inPlace { Elementwise.leakyRelu($0, alpha: 0.2) }) == bits(values.map { $0 >= 0 ? $0 : 0.2 * $0 }))
        for constant: Float in [0, -0.0, -1.5, .nan] {
            let cases: [(BinaryOperation, (Float) -> Float)] = [
                (.add, { $0 + constant }), (.subtract, { $0 - constant }), (.multiply, { $0 * constant }),
                (.divide, { $0 / constant }), (.maximum, { Swift.max($0, constant) }), (.minimum, { Swift.min($0, constant) }),
                (.greaterEqual, { $0 >= constant ? 1 : 0 }),
            ]
            for (operation, definition) in cases {
                #expect(bits(inPlace { Elementwise.binary(operation, $0, constant) }) == bits(values.map(definition)), "\(operation) \(constant)")
            }
        }
        for width in [5, 9, 24] {
            let bias = (0..<width).map { Float($0) * -0.31 + 0.05 }
            let matrix = Array(values.prefix(values.count / width * width))
            var ours = matrix
            Convolution.addRows(bias, to: &ours)
            #expect(bits(ours) == bits(matrix.indices.map { matrix[$0] + bias[$0 % width] }), "width \(width)")
        }
    }

    /// Max and average pools over 12 channels (a vector of 8 and a tail), SAME and VALID,
    /// against the definition.
    @Test(arguments: [(true, false), (true, true), (false, false), (false, true)])
    func poolsOverChannels(max: Bool, same: Bool) throws {
        let input = Self.ramp([2, 5, 6, 12])
        let p = PoolParameters(isMax: max, samePadding: same, strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 3, activation: .none)
        let ours = try Pooling.pool(input, p)
        let (oh, top) = Convolution.outputSize(input: 5, filter: 3, stride: 2, dilation: 1, same: same)
        let (ow, left) = Convolution.outputSize(input: 6, filter: 2, stride: 2, dilation: 1, same: same)
        var expected: [Float] = []
        for b in 0..<2 { for y in 0..<oh { for x in 0..<ow { for c in 0..<12 {
            var cells: [Float] = []
            for ky in 0..<3 { for kx in 0..<2 {
                let iy = y * 2 - top + ky, ix = x * 2 - left + kx
                if iy >= 0, iy < 5, ix >= 0, ix < 6 { cells.append(input.values[((b * 5 + iy) * 6 + ix) * 12 + c]) }
            } }
            expected.append(max ? cells.reduce(-.infinity) { Swift.max($0, $1) } : cells.reduce(0, +) / Float(cells.count))
        } } } }
        #expect(ours == Tensor(shape: [2, oh, ow, 12], values: expected))
    }
}
