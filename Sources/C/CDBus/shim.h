// Shim for CDBus: the one place Swift sees the dbus-1 headers.
// Debian: libdbus-1-dev
#pragma once
#include <dbus/dbus.h>
