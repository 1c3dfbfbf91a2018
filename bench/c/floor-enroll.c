/* The floor for `enroll`: open the first reader, enroll the right index
 * finger, write the serialised print, close. */
#include "floor.h"

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: floor-enroll USER OUT-FILE\n");
      return 2;
    }
  g_autoptr(FpContext) context = fp_context_new ();
  g_autoptr(GError) error = NULL;
  FpDevice *device = floor_open (context);
  FpPrint *template = fp_print_new (device);
  fp_print_set_finger (template, FP_FINGER_RIGHT_INDEX);
  fp_print_set_username (template, argv[1]);
  g_autoptr(FpPrint) print = fp_device_enroll_sync (device, template, NULL, NULL, NULL, &error);
  if (!print)
    floor_die ("enroll", error);
  floor_save_print (print, argv[2]);
  floor_close (device);
  printf ("enrolled\n");
  return 0;
}
