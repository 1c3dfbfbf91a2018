/* The floor for `verify`: open the first reader, verify one stored print,
 * close. Exit 0 on a match, 1 on no match, 3 on an error. */
#include "floor.h"

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: floor-verify PRINT-FILE\n");
      return 2;
    }
  g_autoptr(FpContext) context = fp_context_new ();
  g_autoptr(FpPrint) enrolled = floor_load_print (argv[1]);
  g_autoptr(GError) error = NULL;
  FpDevice *device = floor_open (context);
  gboolean match = FALSE;
  if (!fp_device_verify_sync (device, enrolled, NULL, NULL, NULL, &match, NULL, &error))
    floor_die ("verify", error);
  floor_close (device);
  printf ("%s\n", match ? "match" : "no match");
  return match ? 0 : 1;
}
