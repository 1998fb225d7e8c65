public import BluezModel
public import PulseBackend
public import Routing

/// What `doctor` found out, as plain values; ``DoctorFacts/checks`` turns it into lines.
public struct DoctorFacts: Sendable {
    /// The sound server, or why none answered.
    public var soundServer: Result<PulseServerInfo, DoctorProblem>
    /// The Bluetooth devices the sound server has cards for.
    public var soundServerDevices: [Device]
    /// The system bus address asked, and BlueZ's objects on it, or why the bus did not answer.
    public var systemBus: String
    public var bluez: Result<BluezObjectModel, DoctorProblem>
    public var hci: HCIInventory
    /// ALSA and BlueALSA, when they were looked at.
    public var alsa: ALSAFacts?
    /// The backend a device command would use now and why, when it was asked.
    public var backendChoice: Result<String, DoctorProblem>?

    public init(
        soundServer: Result<PulseServerInfo, DoctorProblem>, soundServerDevices: [Device], systemBus: String,
        bluez: Result<BluezObjectModel, DoctorProblem>, hci: HCIInventory
    ) {
        self.soundServer = soundServer
        self.soundServerDevices = soundServerDevices
        self.systemBus = systemBus
        self.bluez = bluez
        self.hci = hci
    }
}

/// Why something could not be asked, in words.
public struct DoctorProblem: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
