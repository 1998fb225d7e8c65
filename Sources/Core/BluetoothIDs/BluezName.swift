/// The D-Bus names of the `org.bluez` service (BlueZ 5, `doc/org.bluez.*.rst`), shared by our
/// client and the emulator so that neither spells them on its own.
public enum BluezName {
    public static let service = "org.bluez"
    /// BlueZ's object manager lives at the root object.
    public static let objectManagerPath = "/"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let battery = "org.bluez.Battery1"
    public static let media = "org.bluez.Media1"
    public static let endpoint = "org.bluez.MediaEndpoint1"
    public static let transport = "org.bluez.MediaTransport1"
}

/// The D-Bus names of oFono's hands-free audio API (`doc/handsfree-audio-api.txt`).
public enum OfonoName {
    public static let service = "org.ofono"
    public static let manager = "org.ofono.HandsfreeAudioManager"
    public static let card = "org.ofono.HandsfreeAudioCard"
    public static let agent = "org.ofono.HandsfreeAudioAgent"
}

/// The standard D-Bus interfaces BlueZ's objects carry.
public enum FreedesktopName {
    public static let bus = "org.freedesktop.DBus"
    public static let busPath = "/org/freedesktop/DBus"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
}

/// BlueZ's `org.bluez.Agent1` (`doc/org.bluez.Agent.rst`): the methods an agent exports, with
/// their argument signatures, and the manager agents register with.
public enum BluezAgentName {
    public static let interface = "org.bluez.Agent1"
    public static let manager = "org.bluez.AgentManager1"
    public static let methods: [(name: String, signature: String)] = [
        ("Release", ""), ("RequestPinCode", "o"), ("DisplayPinCode", "os"), ("RequestPasskey", "o"),
        ("DisplayPasskey", "ouq"), ("RequestConfirmation", "ou"), ("RequestAuthorization", "o"),
        ("AuthorizeService", "os"), ("Cancel", ""),
    ]
}
