/// Why the command classifier could not be loaded or run.
public enum CommandClassifierError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String, reason: String)
    case features(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the command classifier \(path): \(reason); make it with scripts/make-command-classifier --update"
        case .malformed(let path, let reason):
            return "the command classifier \(path) is not usable: \(reason); make it again with scripts/make-command-classifier --update"
        case .features(let reason):
            return "the command classifier's features failed: \(reason); run scripts/bootstrap to install openWakeWord's feature models"
        }
    }
}
