import Foundation

/// The local assistant's command classifier (`models/commands/command-classifier.json`, made by
/// `scripts/make-command-classifier`): openWakeWord's embedding sequence of a captured command
/// pooled to one vector, standardised, and run through a few small MLPs whose softmax outputs
/// are averaged into probabilities of the grammar's phrasings and "something else".
///
/// Pure arithmetic on values: no I/O after loading. Follows `scripts/train-command-classifier`
/// (numpy) step for step; `CommandClassifierTests` checks both give the same probabilities.
public struct CommandClassifierModel: Sendable {
    /// One member: `inputs → hidden` ReLU → `classes`, row-major weights.
    struct Member: Sendable {
        var hidden: Int
        var w1: [Float]
        var b1: [Float]
        var w2: [Float]
        var b2: [Float]
    }

    /// The classes in output order: the grammar's phrasings, then "something else" (last).
    public let classes: [String]
    /// The pooling's stretches: means over 1, 3 and 6 equal parts of the sequence.
    public let segments: [Int]
    public let embeddingSize: Int
    /// The least probability a command needs (chosen on the development corpus by the trainer).
    public let least: Double
    let mean: [Float]
    let std: [Float]
    let members: [Member]

    /// The number of pooled values: a mean per stretch, the maximum, the log length.
    public var inputs: Int { (segments.reduce(0, +) + 1) * embeddingSize + 1 }
    /// The index of "something else".
    public var otherClass: Int { classes.count - 1 }

    public static let format = "glasses-audio command classifier 1"

    /// Reads the model from the JSON file the trainer writes.
    public init(contentsOf path: String) throws(CommandClassifierError) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        try self.init(json: data, path: path)
    }

    /// A shipped model keeps its tensors in a raw little-endian float32 file beside `path`, which
    /// the JSON names (`weights`) and gives each tensor's offset in; the trainer's own JSON holds
    /// them as base64.
    init(json data: Data, path: String) throws(CommandClassifierError) {
        let file: ModelFile
        do { file = try JSONDecoder().decode(ModelFile.self, from: data) } catch {
            throw .malformed(path: path, reason: "not the trainer's JSON (\(error))")
        }
        guard file.format == Self.format else {
            throw .malformed(path: path, reason: "format \"\(file.format)\", expected \"\(Self.format)\"")
        }
        classes = file.classes
        segments = file.segments
        embeddingSize = file.embeddingSize
        least = file.least
        let inputs = (segments.reduce(0, +) + 1) * embeddingSize + 1
        var weights: Data?
        if let name = file.weights {
            let weightsPath = (URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name)).path
            do { weights = try Data(contentsOf: URL(fileURLWithPath: weightsPath)) } catch {
                throw .unreadable(path: weightsPath, reason: error.localizedDescription)
            }
        }
        func floats(_ tensor: Tensor, _ count: Int, _ name: String) throws(CommandClassifierError) -> [Float] {
            let bytes: Data
            switch tensor {
            case .base64(let text):
                guard let decoded = Data(base64Encoded: text), decoded.count == count * 4 else {
                    throw .malformed(path: path, reason: "\(name): expected \(count) base64 float32 values")
                }
                bytes = decoded
            case .offset(let offset):
                guard let weights, offset >= 0, (offset + count) * 4 <= weights.count else {
                    throw .malformed(path: path, reason: "\(name): \(count) values at \(offset) are beyond the weights file (\(file.weights ?? "none named"))")
                }
                bytes = weights.subdata(in: weights.startIndex + offset * 4..<weights.startIndex + (offset + count) * 4)
            }
            return bytes.withUnsafeBytes { raw in (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) } }
        }
        guard file.inputs == inputs, classes.count >= 2, !file.members.isEmpty else {
            throw .malformed(path: path, reason: "\(file.inputs) inputs for \(segments) stretches of \(embeddingSize) values, \(classes.count) classes, \(file.members.count) members")
        }
        mean = try floats(file.mean, inputs, "mean")
        std = try floats(file.std, inputs, "std")
        var members: [Member] = []
        for (index, member) in file.members.enumerated() {
            let h = member.hidden, c = file.classes.count
            members.append(Member(
                hidden: h,
                w1: try floats(member.w1, inputs * h, "members[\(index)].w1"), b1: try floats(member.b1, h, "members[\(index)].b1"),
                w2: try floats(member.w2, h * c, "members[\(index)].w2"), b2: try floats(member.b2, c, "members[\(index)].b2")))
        }
        self.members = members
    }

    /// The probabilities of the classes for one embedding sequence (96 values every 80 ms).
    public func probabilities(_ embeddings: [[Float]]) -> [Double] {
        let x = standardised(pool(embeddings))
        var sum = [Double](repeating: 0, count: classes.count)
        for member in members {
            for (k, p) in Self.softmax(logits(member, x)).enumerated() { sum[k] += p }
        }
        return sum.map { $0 / Double(members.count) }
    }

    /// Means over `segments` equal stretches, the maximum, the log length (numpy's `pool`).
    func pool(_ sequence: [[Float]]) -> [Double] {
        let n = max(sequence.count, 1)
        let rows = sequence.isEmpty ? [[Float](repeating: 0, count: embeddingSize)] : sequence
        var out: [Double] = []
        out.reserveCapacity(inputs)
        for k in segments {
            for j in 0..<k {
                // numpy: edges = linspace(0, n, k + 1) (index × step, the last edge n itself);
                // a = int(edges[j]); b = max(int(edges[j + 1]), a + 1)
                let step = Double(n) / Double(k)
                let a = Int(Double(j) * step), b = max(j + 1 == k ? n : Int(Double(j + 1) * step), a + 1)
                var mean = [Double](repeating: 0, count: embeddingSize)
                for row in rows[a..<min(b, rows.count)] { for i in 0..<embeddingSize { mean[i] += Double(row[i]) } }
                out += mean.map { $0 / Double(min(b, rows.count) - a) }
            }
        }
        out += (0..<embeddingSize).map { i in Double(rows.map { $0[i] }.max()!) }
        out.append(Foundation.log(Double(n)))
        return out
    }

    func standardised(_ pooled: [Double]) -> [Double] {
        zip(pooled, zip(mean, std)).map { ($0 - Double($1.0)) / Double($1.1) }
    }

    func logits(_ member: Member, _ x: [Double]) -> [Double] {
        let h = member.hidden, c = classes.count
        var hidden = member.b1.map(Double.init)
        for (i, value) in x.enumerated() where value != 0 {
            let row = i * h
            for j in 0..<h { hidden[j] += value * Double(member.w1[row + j]) }
        }
        var out = member.b2.map(Double.init)
        for j in 0..<h where hidden[j] > 0 {
            let row = j * c
            for k in 0..<c { out[k] += hidden[j] * Double(member.w2[row + k]) }
        }
        return out
    }

    static func softmax(_ z: [Double]) -> [Double] {
        let top = z.max() ?? 0
        let e = z.map { Foundation.exp($0 - top) }
        let total = e.reduce(0, +)
        return e.map { $0 / total }
    }

    /// The file's layout (the trainer's docstring describes it).
    /// A tensor: base64 float32 in the JSON (the trainer's file), or an offset (in values) into
    /// the weights file (the shipped one: 1.6 MB of raw floats rather than 2.2 MB of base64).
    private enum Tensor: Decodable {
        case base64(String)
        case offset(Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let offset = try? container.decode(Int.self) { self = .offset(offset) } else { self = .base64(try container.decode(String.self)) }
        }
    }

    private struct ModelFile: Decodable {
        struct Member: Decodable { var hidden: Int; var w1: Tensor; var b1: Tensor; var w2: Tensor; var b2: Tensor }
        var format: String
        /// The raw float32 file beside the JSON that the tensors' offsets point into.
        var weights: String?
        var classes: [String]
        var segments: [Int]
        var embeddingSize: Int
        var inputs: Int
        var mean: Tensor
        var std: Tensor
        var members: [Member]
        var least: Double
    }
}
