/// One line of `doctor`: what was checked, how it went, and for a failure how to fix it.
public struct DoctorCheck: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        case ok
        case failed
        /// Not checked: what it needs is missing (a failed check above says what).
        case skipped
    }

    public var name: String
    public var status: Status
    public var detail: String
    /// What to do about a failure.
    public var fix: String?

    public init(_ name: String, _ status: Status, _ detail: String, fix: String? = nil) {
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = fix
    }

    public static func ok(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name, .ok, detail) }
    public static func failed(_ name: String, _ detail: String, fix: String) -> DoctorCheck { DoctorCheck(name, .failed, detail, fix: fix) }
    public static func skipped(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name, .skipped, detail) }
}
