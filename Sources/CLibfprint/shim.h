#ifndef FPBRIDGE_CLIBFPRINT_SHIM_H
#define FPBRIDGE_CLIBFPRINT_SHIM_H

#include <fprint.h>
#include <glib.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>

// Function-like macros and variadic helpers are not imported into Swift;
// these inline twins give the Swift side one typed entry point each.

static inline gulong fpb_signal_connect(gpointer instance, const gchar *signal,
                                        GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, 0);
}

// libfprint 1.94 has no getter for a device's "removed" property.
static inline gboolean fpb_device_is_removed(gpointer device) {
    gboolean removed = FALSE;
    g_object_get(device, "removed", &removed, NULL);
    return removed;
}

static inline GQuark fpb_io_error_quark(void) { return g_io_error_quark(); }

#endif
