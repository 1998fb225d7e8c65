// Shim for CBluetooth: the one place Swift sees the bluez headers.
// Debian: libbluetooth-dev
#pragma once
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
