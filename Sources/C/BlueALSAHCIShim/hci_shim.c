// See include/BlueALSAHCIShim.h for why this exists.
#include "BlueALSAHCIShim.h"
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The emulated adapter's address (GlassesEmulator.adapterAddress), or $GLASSES_HCI_ADDRESS.
static void blueALSAHCIShim_address(bdaddr_t *out) {
    const char *text = getenv("GLASSES_HCI_ADDRESS");
    unsigned int b[6] = {0x00, 0x1A, 0x7D, 0xDA, 0x71, 0x13};
    if (text != NULL) sscanf(text, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]);
    // bdaddr_t holds the address least significant byte first.
    for (int i = 0; i < 6; i++) out->b[i] = (uint8_t)b[5 - i];
}

// Every local address routes to hci0.
int hci_get_route(bdaddr_t *bdaddr) {
    (void)bdaddr;
    return 0;
}

// hci0: up, on USB, with the SCO sizes of a common USB dongle.
int hci_devinfo(int dev_id, struct hci_dev_info *di) {
    if (dev_id != 0 || di == NULL) {
        errno = ENODEV;
        return -1;
    }
    memset(di, 0, sizeof(*di));
    di->dev_id = 0;
    strcpy(di->name, "hci0");
    blueALSAHCIShim_address(&di->bdaddr);
    di->type = HCI_USB;  // the bus, in the low nibble
    di->flags = 1u << HCI_UP | 1u << HCI_RUNNING;
    di->acl_mtu = 1021;
    di->acl_pkts = 8;
    di->sco_mtu = 64;
    di->sco_pkts = 8;
    return 0;
}
