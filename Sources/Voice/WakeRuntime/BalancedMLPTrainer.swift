import Foundation
import TFLiteGraph
import Voice

/// Positive and negative feature rows for a binary classifier.
package struct TrainingExamples {
    package var positives: [[Float]] = []
    package var negatives: [[Float]] = []

    package init(positives: [[Float]] = [], negatives: [[Float]] = []) {
        self.positives = positives
        self.negatives = negatives
    }
}

/// One hidden ReLU layer and a logistic output, trained with Adam on class-balanced
/// cross-entropy over standardised inputs: the training both wake-word classifiers share (the
/// DTW engine's phrase classifier and the neural engine's heads); they differ only in settings
/// and in how they store the result.
package struct BalancedMLPTrainer {
    package struct Settings {
        package var hiddenUnits: Int
        package var epochs: Int
        package var learningRate: Float
        /// The learning rate is multiplied by this after each epoch.
        package var learningRateDecay: Float
        /// L2 weight decay on the hidden layer.
        package var weightDecay: Float
        /// The negatives' weight relative to balanced classes (above 1: false accepts cost more).
        package var negativeWeight: Float = 1
        /// Hard-negative mining: after `epochs`, this many more epochs on the positives and the
        /// negatives the network then scores highest (`hardNegativeFraction` of them).
        package var miningEpochs: Int = 0
        package var hardNegativeFraction: Double = 0.1
        /// Share of each training row's standardised values set to their mean (0) in every
        /// batch, the rest scaled up to match (``InputDropoutMasks``); 0: none.
        package var inputDropout: Float = 0

        package init(
            hiddenUnits: Int, epochs: Int, learningRate: Float, learningRateDecay: Float, weightDecay: Float, negativeWeight: Float = 1,
            miningEpochs: Int = 0, hardNegativeFraction: Double = 0.1, inputDropout: Float = 0
        ) {
            self.hiddenUnits = hiddenUnits
            self.epochs = epochs
            self.learningRate = learningRate
            self.learningRateDecay = learningRateDecay
            self.weightDecay = weightDecay
            self.negativeWeight = negativeWeight
            self.miningEpochs = miningEpochs
            self.hardNegativeFraction = hardNegativeFraction
            self.inputDropout = inputDropout
        }
    }

    /// The trained network and the standardisation its inputs need.
    package struct Result {
        package var inputMean: [Float]
        package var inputScale: [Float]
        package var hiddenWeights: [Float]
        package var hiddenBias: [Float]
        package var outputWeights: [Float]
        package var outputBias: Float

        /// The hidden layer with `(x − mean) · scale` folded in, for raw inputs.
        package func foldedHiddenLayer() -> (weights: [Float], bias: [Float]) {
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

    package let settings: Settings

    package init(settings: Settings) { self.settings = settings }

    package func fit(_ examples: TrainingExamples, inputs: Int, generator: inout SeededGenerator) -> Result {
        fit(TrainingRows(examples, width: inputs), generator: &generator)
    }

    package func fit(_ rows: TrainingRows, generator: inout SeededGenerator) -> Result {
        let inputs = rows.width
        let all = rows.positives + rows.negatives
        let labels = [Float](repeating: 1, count: rows.positives.count) + [Float](repeating: 0, count: rows.negatives.count)
        let positiveWeight = Float(rows.negatives.count) / Float(rows.positives.count)
        var mean = [Float](repeating: 0, count: inputs)
        var scale = [Float](repeating: 0, count: inputs)
        rows.values.withUnsafeBufferPointer { values in
            for offset in all { for index in 0..<inputs { mean[index] += values[offset + index] } }
            for index in 0..<inputs { mean[index] /= Float(all.count) }
            for offset in all {
                for index in 0..<inputs { scale[index] += (values[offset + index] - mean[index]) * (values[offset + index] - mean[index]) }
            }
        }
        for index in 0..<inputs { scale[index] = 1 / ((scale[index] / Float(all.count)).squareRoot() + 1e-3) }
        let hidden = settings.hiddenUnits
        var network = Network(
            parameters: [
                (0..<(hidden * inputs)).map { _ in generator.gaussian() * (2 / Float(inputs)).squareRoot() },
                [Float](repeating: 0, count: hidden),
                (0..<hidden).map { _ in generator.gaussian() * (1 / Float(hidden)).squareRoot() },
                [0],
            ], inputs: inputs, mean: mean, scale: scale)
        var optimizer = Adam(parameters: network.parameters, learningRate: settings.learningRate, weightDecay: settings.weightDecay)
        var order = Array(all.indices)
        let dropout = settings.inputDropout > 0
            ? InputDropoutMasks(rate: min(settings.inputDropout, 0.9), width: inputs, generator: &generator) : nil
        let weights = labels.map { $0 > 0.5 ? positiveWeight : settings.negativeWeight }
        rows.values.withUnsafeBufferPointer { values in
            for _ in 0..<settings.epochs {
                order.shuffle(using: &generator)
                network.epoch(order, offsets: all, labels: labels, weights: weights, values: values, optimizer: &optimizer,
                              dropout: dropout, generator: &generator)
                optimizer.learningRate *= settings.learningRateDecay
            }
            guard settings.miningEpochs > 0, !rows.negatives.isEmpty else { return }
            // The negatives the network finds hardest, weighted to balance the positives again.
            let scored = Array(zip(rows.negatives.indices, network.logits(rows.negatives, values: values)))
            let keep = max(1, Int(Double(rows.negatives.count) * settings.hardNegativeFraction))
            let hard = scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(keep).map { rows.positives.count + $0.0 }
            var mined = Array(rows.positives.indices) + hard
            var minedWeights = weights
            let balance = Float(hard.count) / Float(max(1, rows.positives.count))
            for index in rows.positives.indices { minedWeights[index] = balance }
            for index in hard { minedWeights[index] = settings.negativeWeight }
            for _ in 0..<settings.miningEpochs {
                mined.shuffle(using: &generator)
                network.epoch(mined, offsets: all, labels: labels, weights: minedWeights, values: values, optimizer: &optimizer,
                              dropout: dropout, generator: &generator)
                optimizer.learningRate *= settings.learningRateDecay
            }
        }
        return Result(
            inputMean: mean, inputScale: scale, hiddenWeights: network.parameters[0], hiddenBias: network.parameters[1],
            outputWeights: network.parameters[2], outputBias: network.parameters[3][0])
    }

    /// The network's parameters (hidden weights, hidden bias, output weights, output bias) and
    /// the standardisation applied to each row as it is read. A batch goes through as matrix
    /// products (BLAS): rows × hidden weights forward, the hidden deltas × rows back.
    private struct Network {
        package var parameters: [[Float]]
        package let inputs: Int
        package let mean: [Float]
        package let scale: [Float]
        package var hidden: Int { parameters[1].count }

        package init(parameters: [[Float]], inputs: Int, mean: [Float], scale: [Float]) {
            self.parameters = parameters
            self.inputs = inputs
            self.mean = mean
            self.scale = scale
        }

        /// The layers as they stand, reading rows standardised.
        private var forward: BatchedForward {
            BatchedForward(width: inputs, hiddenWeights: parameters[0], hiddenBias: parameters[1], outputWeights: parameters[2],
                           outputBias: parameters[3][0], standardisation: (mean, scale))
        }

        /// The logits of the rows at `offsets`, in batches.
        package func logits(_ offsets: [Int], values: UnsafeBufferPointer<Float>) -> [Float] {
            forward.logits(offsets, values: values)
        }

        /// One pass over `order` (indices into `offsets`) in batches of 32.
        package mutating func epoch(
            _ order: [Int], offsets: [Int], labels: [Float], weights: [Float], values: UnsafeBufferPointer<Float>,
            optimizer: inout Adam, dropout: InputDropoutMasks?, generator: inout SeededGenerator
        ) {
            let batch = 32
            let (inputs, hidden) = (self.inputs, self.hidden)
            var input = [Float](repeating: 0, count: batch * inputs)
            var activation = [Float](repeating: 0, count: batch * hidden)
            var back = [Float](repeating: 0, count: batch * hidden)
            var gradients = parameters.map { [Float](repeating: 0, count: $0.count) }
            for batchStart in stride(from: 0, to: order.count, by: batch) {
                let members = order[batchStart..<min(order.count, batchStart + batch)]
                let logits = forward.logits(members.lazy.map { offsets[$0] }, values: values, input: &input, activation: &activation) { rows, count in
                    dropout?.apply(to: rows, count: count, generator: &generator)
                }
                for layer in 1..<gradients.count { gradients[layer].withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
                for (row, sample) in members.enumerated() {
                    let probability = 1 / (1 + expf(-logits[row]))
                    let delta = (probability - labels[sample]) * weights[sample] / Float(members.count)
                    gradients[3][0] += delta
                    for unit in 0..<hidden {
                        let value = activation[row * hidden + unit]
                        gradients[2][unit] += delta * value
                        let unitBack = value > 0 ? delta * parameters[2][unit] : 0
                        back[row * hidden + unit] = unitBack
                        gradients[1][unit] += unitBack
                    }
                }
                // hidden weights' gradient = backᵀ (hidden × rows) · input (rows × inputs)
                back.withUnsafeBufferPointer { b in
                    input.withUnsafeBufferPointer { x in
                        gradients[0].withUnsafeMutableBufferPointer { g in
                            BLAS.multiply(b.baseAddress!, x.baseAddress!, into: g.baseAddress!,
                                          m: hidden, n: inputs, k: members.count, transposeA: true, transposeB: false)
                        }
                    }
                }
                optimizer.step(&parameters, gradients: gradients)
            }
        }
    }

    /// Adam with L2 weight decay on the first layer.
    private struct Adam {
        package var firstMoment: [[Float]]
        package var secondMoment: [[Float]]
        package var step = 0
        package var learningRate: Float
        package let weightDecay: Float

        package init(parameters: [[Float]], learningRate: Float, weightDecay: Float) {
            firstMoment = parameters.map { [Float](repeating: 0, count: $0.count) }
            secondMoment = firstMoment
            self.learningRate = learningRate
            self.weightDecay = weightDecay
        }

        package mutating func step(_ parameters: inout [[Float]], gradients: [[Float]]) {
            step += 1
            let correction1 = 1 - powf(0.9, Float(step))
            let correction2 = 1 - powf(0.999, Float(step))
            let (rate, inverseCorrection2, weightDecay) = (learningRate / correction1, 1 / correction2, self.weightDecay)
            for layer in parameters.indices {
                parameters[layer].withUnsafeMutableBufferPointer { p in
                    firstMoment[layer].withUnsafeMutableBufferPointer { m in
                        secondMoment[layer].withUnsafeMutableBufferPointer { v in
                            gradients[layer].withUnsafeBufferPointer { g in
                                let decay = layer == 0 ? weightDecay : 0
                                for index in p.indices {
                                    let gradient = g[index] + decay * p[index]
                                    m[index] = 0.9 * m[index] + 0.1 * gradient
                                    v[index] = 0.999 * v[index] + 0.001 * gradient * gradient
                                    p[index] -= rate * m[index] / ((v[index] * inverseCorrection2).squareRoot() + 1e-8)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
