import Foundation
import Voice

/// Positive and negative feature rows for a binary classifier.
struct TrainingExamples {
    var positives: [[Float]] = []
    var negatives: [[Float]] = []
}

/// One hidden ReLU layer and a logistic output, trained with Adam on class-balanced
/// cross-entropy over standardised inputs: the training both wake-word classifiers share (the
/// DTW engine's phrase classifier and the neural engine's heads); they differ only in settings
/// and in how they store the result.
struct BalancedMLPTrainer {
    struct Settings {
        var hiddenUnits: Int
        var epochs: Int
        var learningRate: Float
        /// The learning rate is multiplied by this after each epoch.
        var learningRateDecay: Float
        /// L2 weight decay on the hidden layer.
        var weightDecay: Float
    }

    /// The trained network and the standardisation its inputs need.
    struct Result {
        var inputMean: [Float]
        var inputScale: [Float]
        var hiddenWeights: [Float]
        var hiddenBias: [Float]
        var outputWeights: [Float]
        var outputBias: Float

        /// The hidden layer with `(x − mean) · scale` folded in, for raw inputs.
        func foldedHiddenLayer() -> (weights: [Float], bias: [Float]) {
            let inputs = inputMean.count
            var folded = hiddenWeights
            var bias = hiddenBias
            for unit in 0..<hiddenBias.count {
                var shift: Float = 0
                for index in 0..<inputs {
                    folded[unit * inputs + index] *= inputScale[index]
                    shift += folded[unit * inputs + index] * inputMean[index]
                }
                bias[unit] -= shift
            }
            return (folded, bias)
        }
    }

    let settings: Settings

    func fit(_ examples: TrainingExamples, inputs: Int, generator: inout SeededGenerator) -> Result {
        let all = examples.positives + examples.negatives
        let labels = [Float](repeating: 1, count: examples.positives.count) + [Float](repeating: 0, count: examples.negatives.count)
        let positiveWeight = Float(examples.negatives.count) / Float(examples.positives.count)
        var mean = [Float](repeating: 0, count: inputs)
        var scale = [Float](repeating: 0, count: inputs)
        for row in all { for index in 0..<inputs { mean[index] += row[index] } }
        for index in 0..<inputs { mean[index] /= Float(all.count) }
        for row in all { for index in 0..<inputs { scale[index] += (row[index] - mean[index]) * (row[index] - mean[index]) } }
        for index in 0..<inputs { scale[index] = 1 / ((scale[index] / Float(all.count)).squareRoot() + 1e-3) }
        let x = all.map { row in (0..<inputs).map { (row[$0] - mean[$0]) * scale[$0] } }
        let hidden = settings.hiddenUnits
        var parameters: [[Float]] = [
            (0..<(hidden * inputs)).map { _ in generator.gaussian() * (2 / Float(inputs)).squareRoot() },
            [Float](repeating: 0, count: hidden),
            (0..<hidden).map { _ in generator.gaussian() * (1 / Float(hidden)).squareRoot() },
            [0],
        ]
        var firstMoment = parameters.map { [Float](repeating: 0, count: $0.count) }
        var secondMoment = firstMoment
        var step = 0
        var learningRate = settings.learningRate
        let batch = 32
        var order = Array(all.indices)
        var activation = [Float](repeating: 0, count: hidden)
        for _ in 0..<settings.epochs {
            order.shuffle(using: &generator)
            for batchStart in stride(from: 0, to: order.count, by: batch) {
                var gradients = parameters.map { [Float](repeating: 0, count: $0.count) }
                let members = order[batchStart..<min(order.count, batchStart + batch)]
                for sample in members {
                    let input = x[sample]
                    var output = parameters[3][0]
                    input.withUnsafeBufferPointer { values in
                        parameters[0].withUnsafeBufferPointer { weights in
                            for unit in 0..<hidden {
                                let sum = VectorMath.dot(weights.baseAddress! + unit * inputs, values.baseAddress!, inputs)
                                activation[unit] = max(0, sum + parameters[1][unit])
                                output += parameters[2][unit] * activation[unit]
                            }
                        }
                    }
                    let probability = 1 / (1 + expf(-output))
                    let weight: Float = labels[sample] > 0.5 ? positiveWeight : 1
                    let delta = (probability - labels[sample]) * weight / Float(members.count)
                    gradients[3][0] += delta
                    for unit in 0..<hidden where activation[unit] > 0 {
                        gradients[2][unit] += delta * activation[unit]
                        let back = delta * parameters[2][unit]
                        gradients[1][unit] += back
                        gradients[0].withUnsafeMutableBufferPointer { g in
                            input.withUnsafeBufferPointer { v in
                                let row = unit * inputs
                                for index in 0..<inputs { g[row + index] += back * v[index] }
                            }
                        }
                    }
                }
                step += 1
                let correction1 = 1 - powf(0.9, Float(step))
                let correction2 = 1 - powf(0.999, Float(step))
                for layer in parameters.indices {
                    parameters[layer].withUnsafeMutableBufferPointer { p in
                        firstMoment[layer].withUnsafeMutableBufferPointer { m in
                            secondMoment[layer].withUnsafeMutableBufferPointer { v in
                                gradients[layer].withUnsafeBufferPointer { g in
                                    for index in p.indices {
                                        let gradient = g[index] + (layer == 0 ? settings.weightDecay * p[index] : 0)
                                        m[index] = 0.9 * m[index] + 0.1 * gradient
                                        v[index] = 0.999 * v[index] + 0.001 * gradient * gradient
                                        p[index] -= learningRate * (m[index] / correction1) / ((v[index] / correction2).squareRoot() + 1e-8)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            learningRate *= settings.learningRateDecay
        }
        return Result(
            inputMean: mean, inputScale: scale, hiddenWeights: parameters[0], hiddenBias: parameters[1],
            outputWeights: parameters[2], outputBias: parameters[3][0])
    }
}
