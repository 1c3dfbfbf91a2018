/* The floor for `identify`: read every print named in LIST-FILE (one path a
 * line, in gallery order), open the first reader, identify, close. Prints the
 * matching line number (1-based) or "no match". Exit 0 on a match, 1 without. */
#include "floor.h"

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: floor-identify LIST-FILE\n");
      return 2;
    }
  g_autoptr(GError) error = NULL;
  gchar *list = NULL;
  if (!g_file_get_contents (argv[1], &list, NULL, &error))
    floor_die (argv[1], error);
  g_auto(GStrv) paths = g_strsplit (list, "\n", -1);
  g_free (list);
  g_autoptr(GPtrArray) gallery = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; paths[i]; i++)
    if (paths[i][0])
      g_ptr_array_add (gallery, floor_load_print (paths[i]));
  if (gallery->len == 0)
    floor_die ("empty gallery", NULL);

  g_autoptr(FpContext) context = fp_context_new ();
  FpDevice *device = floor_open (context);
  g_autoptr(FpPrint) match = NULL;
  if (!fp_device_identify_sync (device, gallery, NULL, NULL, NULL, &match, NULL, &error))
    floor_die ("identify", error);
  floor_close (device);
  if (!match)
    {
      printf ("no match\n");
      return 1;
    }
  for (guint i = 0; i < gallery->len; i++)
    if (g_ptr_array_index (gallery, i) == match || fp_print_equal (g_ptr_array_index (gallery, i), match))
      {
        printf ("match %u\n", i + 1);
        return 0;
      }
  printf ("match ?\n");
  return 0;
}
