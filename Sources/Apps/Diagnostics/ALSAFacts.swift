public import ALSABackend

/// What `doctor` found of ALSA and BlueALSA.
public struct ALSAFacts: Sendable {
    /// libasound's version.
    public var library: String
    public var cards: [ALSACard]
    /// The PCMs a person would pick (``ALSAEndpointCatalog``), by name.
    public var pcms: [String]
    /// `bluealsa --version`, or nil when BlueALSA is not installed.
    public var blueALSAVersion: String?
    /// BlueALSA's PCMs on the system bus, or nil when it is not there.
    public var blueALSAPCMs: [BlueALSAPCM]?

    public init(library: String, cards: [ALSACard], pcms: [String], blueALSAVersion: String?, blueALSAPCMs: [BlueALSAPCM]?) {
        self.library = library
        self.cards = cards
        self.pcms = pcms
        self.blueALSAVersion = blueALSAVersion
        self.blueALSAPCMs = blueALSAPCMs
    }
}
