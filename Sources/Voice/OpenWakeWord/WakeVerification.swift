public import TFLiteGraph
import Foundation

/// A second stage for a neural wake head: another head of the same format (a verifier, trained on
/// the phrase against its near-phrases) that must agree on the window the first head fired on.
/// One rule for every user: the live scorer and the evaluation both decide with
/// ``WakeDecision/step(time:score:verified:)``.
public struct WakeVerification: Sendable {
    public var graph: TFLiteGraph
    /// The verifier's probability a window needs to stand.
    public var threshold: Float

    public init(graph: TFLiteGraph, threshold: Float) {
        self.graph = graph
        self.threshold = threshold
    }

    /// A shipped verifier's threshold: its output is shifted so that its operating point is 0.5.
    public static let shippedThreshold: Float = 0.5

    /// Where a head's verifier lies: `hey_glasses.tflite` → `hey_glasses.verifier.tflite`.
    public static func path(besideHead head: String) -> String {
        (head.hasSuffix(".tflite") ? String(head.dropLast(".tflite".count)) : head) + fileSuffix
    }

    public static let fileSuffix = ".verifier.tflite"

    /// The verifier beside `head`, if there is one.
    public static func besideHead(_ head: String) throws(OpenWakeWordError) -> WakeVerification? {
        let path = path(besideHead: head)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return WakeVerification(graph: try OpenWakeWordModels.load(path: path), threshold: shippedThreshold)
    }

}
