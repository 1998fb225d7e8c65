/// MAX_POOL_2D and AVERAGE_POOL_2D over NHWC tensors; padded cells are left out.
enum Pooling {
    static func pool(_ input: Tensor, _ p: PoolParameters) throws(KernelError) -> Tensor {
        guard input.shape.count == 4 else { throw KernelError("needs a 4-D NHWC input, got \(input.shape)") }
        let (batches, height, width, channels) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (outH, padTop) = Convolution.outputSize(input: height, filter: p.filterHeight, stride: p.strideHeight, dilation: 1, same: p.samePadding)
        let (outW, padLeft) = Convolution.outputSize(input: width, filter: p.filterWidth, stride: p.strideWidth, dilation: 1, same: p.samePadding)
        guard outH > 0, outW > 0 else { throw KernelError("input \(input.shape) is smaller than the \(p.filterHeight)×\(p.filterWidth) window") }
        var output = [Float](repeating: p.isMax ? -.infinity : 0, count: batches * outH * outW * channels)
        var counts = [Float](repeating: 0, count: outH * outW)
        input.values.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { out in
                for n in 0..<batches {
                    for oy in 0..<outH {
                        for ox in 0..<outW {
                            let target = ((n * outH + oy) * outW + ox) * channels
                            for ky in 0..<p.filterHeight {
                                let iy = oy * p.strideHeight - padTop + ky
                                guard iy >= 0, iy < height else { continue }
                                for kx in 0..<p.filterWidth {
                                    let ix = ox * p.strideWidth - padLeft + kx
                                    guard ix >= 0, ix < width else { continue }
                                    let from = ((n * height + iy) * width + ix) * channels
                                    fold(out.baseAddress! + target, source.baseAddress! + from, count: channels, max: p.isMax)
                                    if !p.isMax, n == 0 { counts[oy * outW + ox] += 1 }
                                }
                            }
                        }
                    }
                }
                if !p.isMax {
                    for i in 0..<out.count { out[i] /= Swift.max(1, counts[(i / channels) % (outH * outW)]) }
                }
            }
        }
        p.activation.apply(&output)
        return Tensor(shape: [batches, outH, outW, channels], values: output)
    }

    /// `target[c] = max(target[c], source[c])` (`Swift.max`: `y >= x ? y : x`) or
    /// `target[c] += source[c]`, eight channels at a time.
    @inline(__always)
    private static func fold(_ target: UnsafeMutablePointer<Float>, _ source: UnsafePointer<Float>, count: Int, max: Bool) {
        let into = UnsafeMutableRawPointer(target), from = UnsafeRawPointer(source), size = MemoryLayout<Float>.stride
        var c = 0
        while c + 8 <= count {
            let x = into.loadUnaligned(fromByteOffset: c * size, as: SIMD8<Float>.self)
            let y = from.loadUnaligned(fromByteOffset: c * size, as: SIMD8<Float>.self)
            into.storeBytes(of: max ? x.replacing(with: y, where: y .>= x) : x + y, toByteOffset: c * size, as: SIMD8<Float>.self)
            c += 8
        }
        while c < count {
            target[c] = max ? Swift.max(target[c], source[c]) : target[c] + source[c]
            c += 1
        }
    }
}
