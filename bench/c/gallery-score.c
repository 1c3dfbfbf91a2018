/* gallery-score BUDGET-SECONDS LIST-FILE < PROBES
 *
 * Measures a gallery through libfprint's own matching (NBIS on virtual_image).
 * LIST-FILE names the enrolled prints, one path a line. Each line of PROBES is
 * "IMAGE.pgm OWN [g]": OWN is the 1-based line of the probe's own finger in
 * LIST-FILE, 0 for a finger that is not enrolled; "g" asks for the genuine
 * comparison only. Per probe:
 *   - genuine: verify against its own print (skipped when OWN is 0);
 *   - impostors: identify over every other print; each print that matches is
 *     a false match, is taken out, and identify runs again until none does,
 *     so every false-matching pair is counted.
 * Prints "probe IMAGE genuine 1|0|- false N [LINE...]" per probe.
 * Stops after BUDGET-SECONDS (the thermal limit: see gallery-enroll.c). */
#include "gallery.h"

/* Plays the image and runs one verify (against == one print) or identify. */
static FpPrint *
match_once (GalleryReader *reader, GPtrArray *gallery, FpPrint *against, gboolean *verified)
{
  g_autoptr(GError) error = NULL;
  FpPrint *match = NULL;
  for (int attempt = 0; attempt < 3; attempt++)
    {
      g_clear_error (&error);
      if (against)
        fp_device_verify (reader->device, against, NULL, NULL, NULL, NULL, gallery_finished, reader);
      else
        fp_device_identify (reader->device, gallery, NULL, NULL, NULL, NULL, gallery_finished, reader);
      gallery_wait (reader);
      gboolean ok = against
        ? fp_device_verify_finish (reader->device, reader->result, verified, NULL, &error)
        : fp_device_identify_finish (reader->device, reader->result, &match, NULL, &error);
      g_clear_object (&reader->result);
      if (ok)
        return match;
      /* A retry (the probe had too few minutiae, say) ends the operation: scan again. */
      if (error->domain != FP_DEVICE_RETRY)
        floor_die (against ? "verify" : "identify", error);
    }
  floor_die ("the probe was refused three times", error);
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: gallery-score BUDGET-SECONDS LIST-FILE < PROBES\n");
      return 2;
    }
  double deadline = gallery_seconds () + atof (argv[1]);
  g_autoptr(GError) error = NULL;
  gchar *list = NULL;
  if (!g_file_get_contents (argv[2], &list, NULL, &error))
    floor_die (argv[2], error);
  g_auto(GStrv) paths = g_strsplit (list, "\n", -1);
  g_free (list);
  g_autoptr(GPtrArray) prints = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; paths[i]; i++)
    if (paths[i][0])
      g_ptr_array_add (prints, floor_load_print (paths[i]));

  g_autoptr(FpContext) context = fp_context_new ();
  GalleryReader reader;
  gallery_open (&reader, context);
  char line[4096];
  while (gallery_seconds () < deadline && fgets (line, sizeof line, stdin))
    {
      char image[4000], only[8] = "";
      guint own = 0;
      if (sscanf (line, "%3999s %u %7s", image, &own, only) < 2 || own > prints->len)
        continue;
      int width, height;
      g_autofree guint8 *pixels = gallery_read_pgm (image, &width, &height);
      gallery_set_frame (&reader, pixels, width, height);

      const char *genuine = "-";
      if (own > 0)
        {
          gboolean verified = FALSE;
          match_once (&reader, NULL, g_ptr_array_index (prints, own - 1), &verified);
          genuine = verified ? "1" : "0";
        }
      /* Everyone else, in gallery order; positions kept to name the false matches. */
      g_autoptr(GPtrArray) others = g_ptr_array_new ();
      g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < prints->len && strcmp (only, "g") != 0; i++)
        if (i + 1 != own)
          {
            g_ptr_array_add (others, g_ptr_array_index (prints, i));
            guint number = i + 1;
            g_array_append_val (lines, number);
          }
      g_autoptr(GString) falses = g_string_new ("");
      guint count = 0;
      while (others->len > 0)
        {
          g_autoptr(FpPrint) match = match_once (&reader, others, NULL, NULL);
          if (!match)
            break;
          guint k = 0;
          while (k < others->len && g_ptr_array_index (others, k) != match
                 && !fp_print_equal (g_ptr_array_index (others, k), match))
            k++;
          if (k == others->len)
            floor_die ("identify returned a print not in the gallery", NULL);
          g_string_append_printf (falses, " %u", g_array_index (lines, guint, k));
          count++;
          g_ptr_array_remove_index (others, k);
          g_array_remove_index (lines, k);
        }
      reader.frame = NULL;
      printf ("probe %s genuine %s false %u%s\n", image, genuine, count, falses->str);
      fflush (stdout);
    }
  gallery_close (&reader);
  return 0;
}
