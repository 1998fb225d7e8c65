/// Whether a narrowband forced choice holds up as a command: a per-frame likelihood margin
/// against the same audio explained as a run of everyday words, less a cost per word outside the
/// commands in the open decode. Pure: the decoders' results come in as values.
///
/// The forced choice among the commands always names one. Explained instead as a run of everyday
/// words (a crude model of other speech), a command's audio scores well below the forced path
/// and a request the grammar lacks about as well or better; the open decode (the commands or a
/// run of everyday words, one search) adds what it heard: a request comes out as many other
/// words, a command as itself or a word or two of noise. Neither alone separates them well on a
/// narrowband link (docs/voice.md, "Commands"); their sum does better.
public struct NarrowbandCheck: Sendable, Equatable {
    /// The forced choice's path score per 10 ms frame (pocketsphinx's scaled log-likelihood).
    public var forcedPerFrame: Double
    /// The best run of everyday words' path score per frame (`nil`: no path reached its end).
    public var everydayPerFrame: Double?
    /// The open decode, read against the grammar's phrases.
    public var openDecode: OpenDecodeCheck

    /// The cost of one word outside the commands in the open decode, in score per frame.
    public static let otherWordCost = 2.0
    /// The least margin a command needs (score per frame): chosen on a development corpus with
    /// `voice-eval commands` (docs/voice.md, "Commands").
    public static let minimumMargin = -2.2

    public init(forcedPerFrame: Double, everydayPerFrame: Double?, openDecode: OpenDecodeCheck) {
        self.forcedPerFrame = forcedPerFrame
        self.everydayPerFrame = everydayPerFrame
        self.openDecode = openDecode
    }

    /// How far the forced choice stands above other speech: its lead over the everyday words per
    /// frame (none found: the forced choice is all there is, a lead of 0) less the other words' cost.
    public var margin: Double {
        forcedPerFrame - (everydayPerFrame ?? forcedPerFrame) - Self.otherWordCost * Double(openDecode.otherWords)
    }

    /// The forced choice `candidate` stands: the open decode names no other command, and the
    /// margin is at least `minimumMargin`. A command with an effect (`effectful`: "stop",
    /// "cancel", "never mind" end the round trip without a word, so a request taken for one fails
    /// silently) also needs the open decode to have heard it itself: over 8 kHz, a request in
    /// flite's voices was taken for "cancel" above the least margin, where commands stand, with
    /// the open decode hearing other words (docs/voice.md, "Commands").
    public func accepts(_ candidate: String, minimumMargin: Double = Self.minimumMargin, effectful: Bool = false,
                        sameCommand: (String, String) -> Bool) -> Bool {
        guard openDecode.commands.allSatisfy({ sameCommand($0, candidate) }), margin >= minimumMargin else { return false }
        return !effectful || !openDecode.commands.isEmpty
    }
}
