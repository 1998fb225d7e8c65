/// CONV_2D: NHWC input, OHWI filter, optional bias; patches gathered into rows (im2col) and
/// multiplied with the filter in one BLAS call per image.
enum Convolution {
    /// Output size and leading padding of one spatial axis, as TFLite computes them.
    static func outputSize(input: Int, filter: Int, stride: Int, dilation: Int, same: Bool) -> (size: Int, padBefore: Int) {
        let effective = (filter - 1) * dilation + 1
        let size = same ? (input + stride - 1) / stride : (input - effective + stride) / stride
        let total = max(0, (size - 1) * stride + effective - input)
        return (max(0, size), same ? total / 2 : 0)
    }

    static func conv2D(_ input: Tensor, filter: Tensor, bias: Tensor?, _ p: Conv2DParameters) throws(KernelError) -> Tensor {
        let ohwi = p.filterShape ?? filter.shape
        guard input.shape.count == 4, ohwi.count == 4 else {
            throw KernelError("needs a 4-D input and filter, got \(input.shape) and \(ohwi)")
        }
        if p.filterShape != nil, filter.shape != [ohwi[1] * ohwi[2] * ohwi[3], ohwi[0]] {
            throw KernelError("filter columns \(filter.shape) do not hold a filter of \(ohwi)")
        }
        let (batches, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (outChannels, kh, kw, filterChannels) = (ohwi[0], ohwi[1], ohwi[2], ohwi[3])
        guard filterChannels == channels else { throw KernelError("input has \(channels) channels, the filter expects \(filterChannels)") }
        if let bias, bias.count != outChannels { throw KernelError("bias has \(bias.count) values for \(outChannels) filters") }
        let (outH, padTop) = outputSize(input: height, filter: kh, stride: p.strideHeight, dilation: p.dilationHeight, same: p.samePadding)
        let (outW, padLeft) = outputSize(input: width, filter: kw, stride: p.strideWidth, dilation: p.dilationWidth, same: p.samePadding)
        guard outH > 0, outW > 0 else { throw KernelError("input \(input.shape) is smaller than the filter \(filter.shape)") }
        let rows = outH * outW, depth = kh * kw * channels
        // Neither needs zeros first: the patches are written whole below, the output by BLAS.
        var output = [Float](unsafeUninitializedCapacity: batches * rows * outChannels) { $1 = $0.count }
        var patches = [Float](unsafeUninitializedCapacity: rows * depth) { $1 = $0.count }
        input.values.withUnsafeBufferPointer { source in
            patches.withUnsafeMutableBufferPointer { patches in
                output.withUnsafeMutableBufferPointer { output in
                    filter.values.withUnsafeBufferPointer { weights in
                        for n in 0..<batches {
                            let image = n * height * width * channels
                            for oy in 0..<outH {
                                for ox in 0..<outW {
                                    var cursor = (oy * outW + ox) * depth
                                    let x0 = ox * p.strideWidth - padLeft
                                    // With no dilation, a row of the patch is one contiguous run of the image.
                                    let contiguous = p.dilationWidth == 1 && x0 >= 0 && x0 + kw <= width
                                    for ky in 0..<kh {
                                        let iy = oy * p.strideHeight - padTop + ky * p.dilationHeight
                                        let target = patches.baseAddress! + cursor
                                        if iy < 0 || iy >= height {
                                            target.update(repeating: 0, count: kw * channels)
                                        } else if contiguous {
                                            target.update(from: source.baseAddress! + image + (iy * width + x0) * channels, count: kw * channels)
                                        } else {
                                            for kx in 0..<kw {
                                                let ix = x0 + kx * p.dilationWidth
                                                if ix >= 0, ix < width {
                                                    (target + kx * channels).update(
                                                        from: source.baseAddress! + image + (iy * width + ix) * channels, count: channels)
                                                } else {
                                                    (target + kx * channels).update(repeating: 0, count: channels)
                                                }
                                            }
                                        }
                                        cursor += kw * channels
                                    }
                                }
                            }
                            BLAS.multiply(
                                patches.baseAddress!, weights.baseAddress!, into: output.baseAddress! + n * rows * outChannels,
                                m: rows, n: outChannels, k: depth, transposeB: p.filterShape == nil)
                        }
                    }
                }
            }
        }
        p.finish(&output, bias: bias)
        return Tensor(shape: [batches, outH, outW, outChannels], values: output)
    }

    /// An OHWI filter `[out, height, width, channels]` as the columns of the product,
    /// `[height·width·channels, out]`: BLAS multiplies the patches by it without repacking the
    /// transposed weights at each call (a streamed run's products are small, and that packing
    /// was a third of their time).
    static func columns(of filter: Tensor) -> Tensor {
        let outChannels = filter.shape[0], depth = filter.count / max(1, outChannels)
        let values = [Float](unsafeUninitializedCapacity: filter.count) { columns, count in
            for o in 0..<outChannels {
                for d in 0..<depth { columns[d * outChannels + o] = filter.values[o * depth + d] }
            }
            count = filter.count
        }
        return Tensor(shape: [depth, outChannels], values: values)
    }

    /// Adds `bias` to every row of `matrix` (rows of `bias.count`), eight values at a time.
    static func addRows(_ bias: [Float], to matrix: inout [Float]) {
        let width = bias.count, size = MemoryLayout<Float>.stride
        guard width > 0 else { return }
        bias.withUnsafeBufferPointer { bias in
            matrix.withUnsafeMutableBufferPointer { matrix in
                let lanes = width / 8 * 8
                let terms = UnsafeRawPointer(bias.baseAddress!)
                var row = 0
                while row + width <= matrix.count {
                    let target = UnsafeMutableRawPointer(matrix.baseAddress! + row)
                    var j = 0
                    while j < lanes {
                        let sum = target.loadUnaligned(fromByteOffset: j * size, as: SIMD8<Float>.self)
                            + terms.loadUnaligned(fromByteOffset: j * size, as: SIMD8<Float>.self)
                        target.storeBytes(of: sum, toByteOffset: j * size, as: SIMD8<Float>.self)
                        j += 8
                    }
                    while j < width {
                        matrix[row + j] += bias[j]
                        j += 1
                    }
                    row += width
                }
            }
        }
    }
}
