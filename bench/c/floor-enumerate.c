/* The floor for a cold `status`/`readers`: create a context, enumerate, print
 * each reader's driver and device id, exit. */
#include "floor.h"

int
main (void)
{
  g_autoptr(FpContext) context = fp_context_new ();
  GPtrArray *devices = fp_context_get_devices (context);
  for (guint i = 0; devices && i < devices->len; i++)
    {
      FpDevice *device = g_ptr_array_index (devices, i);
      printf ("%s/%s %s\n", fp_device_get_driver (device),
              fp_device_get_device_id (device), fp_device_get_name (device));
    }
  return 0;
}
