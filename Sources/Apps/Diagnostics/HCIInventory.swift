/// The Bluetooth controllers the kernel has (HCI, through libbluetooth), or why there are none.
public struct HCIInventory: Sendable, Hashable, Codable {
    /// One controller: `hci0`, its address, whether it is up, and whether it can carry
    /// wideband speech (mSBC needs eSCO links and transparent SCO data).
    public struct Controller: Sendable, Hashable, Codable {
        public var name: String
        public var address: String
        public var isUp: Bool
        public var supportsESCO: Bool
        public var supportsTransparentSCO: Bool

        public init(name: String, address: String, isUp: Bool, supportsESCO: Bool, supportsTransparentSCO: Bool) {
            self.name = name
            self.address = address
            self.isUp = isUp
            self.supportsESCO = supportsESCO
            self.supportsTransparentSCO = supportsTransparentSCO
        }

        /// Whether mSBC (wideband HFP) is possible on this controller.
        public var wideband: Bool { supportsESCO && supportsTransparentSCO }
    }

    public var controllers: [Controller]
    /// Why the kernel could not be asked (no Bluetooth in this kernel, not allowed…); nil
    /// when it answered, even with no controllers.
    public var unavailable: String?

    public init(controllers: [Controller], unavailable: String? = nil) {
        self.controllers = controllers
        self.unavailable = unavailable
    }
}
