// BlueALSAHCIShim: an LD_PRELOAD library for a BlueALSA running on the emulator's bus, where
// there is no kernel Bluetooth stack. BlueALSA asks libbluetooth (not D-Bus) two things:
// hci_get_route() to map an oFono card's local address to an adapter, and hci_devinfo() for the
// adapter's bus type (a USB adapter gets a 48-byte SCO MTU; the socket pair reports 0, which
// spins BlueALSA's SCO threads). This library answers both for hci0, a USB adapter.
// Nothing links against it; it exists to be preloaded.
#pragma once
