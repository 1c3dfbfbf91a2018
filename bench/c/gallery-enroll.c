/* gallery-enroll BUDGET-SECONDS < JOBS
 *
 * Enrolls synthetic fingers on libfprint's virtual_image reader, one process
 * for many fingers. Each line of JOBS is "IMAGE.pgm... PRINT-OUT": one image
 * is played for each of the reader's enroll stages (5), as virtual_image's
 * prints are made; several images are played in turn, one a stage (again from
 * the first if the reader asks for more, after a retry), so the print holds
 * distinct samples as a real reader's does. The print is saved with
 * fp_print_serialize (what the C floor loads and fpbridge stores).
 * Prints "ok PRINT-OUT RETRIES" or "fail PRINT-OUT why" per job, as it goes.
 *
 * Stops taking jobs once BUDGET-SECONDS have passed (exit 0 all the same):
 * an image reader goes HOT after about 180 s of continuous work and stays hot
 * for minutes, so bench/gallery.py runs the remaining jobs in a fresh process,
 * whose reader starts cold. */
#include "gallery.h"

typedef struct
{
  int retries;
  GCancellable *cancellable;
} Attempt;

static void
on_progress (FpDevice *device, gint completed, FpPrint *print, gpointer data, GError *error)
{
  (void) device;
  (void) completed;
  (void) print;
  Attempt *attempt = data;
  /* An image NBIS rejects (too few minutiae) would be asked for forever. */
  if (error && ++attempt->retries > 4)
    g_cancellable_cancel (attempt->cancellable);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: gallery-enroll BUDGET-SECONDS < JOBS\n");
      return 2;
    }
  double deadline = gallery_seconds () + atof (argv[1]);
  g_autoptr(FpContext) context = fp_context_new ();
  GalleryReader reader;
  gallery_open (&reader, context);
  char line[4096];
  while (gallery_seconds () < deadline && fgets (line, sizeof line, stdin))
    {
      g_auto(GStrv) fields = g_strsplit (g_strstrip (line), " ", -1);
      int images = (int) g_strv_length (fields) - 1;
      if (images < 1 || images > GALLERY_MAX_FRAMES)
        continue;
      const char *out = fields[images];
      GalleryFrame frames[GALLERY_MAX_FRAMES];
      for (int i = 0; i < images; i++)
        frames[i].pixels = gallery_read_pgm (fields[i], &frames[i].width, &frames[i].height);
      gallery_set_frames (&reader, frames, images);
      FpPrint *template = g_object_ref_sink (fp_print_new (reader.device));
      fp_print_set_finger (template, FP_FINGER_RIGHT_INDEX);
      fp_print_set_username (template, "bench");
      Attempt attempt = { 0, g_cancellable_new () };
      fp_device_enroll (reader.device, template, attempt.cancellable, on_progress, &attempt, NULL,
                        gallery_finished, &reader);
      g_object_unref (template);
      gallery_wait (&reader);
      reader.frame = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(FpPrint) enrolled = fp_device_enroll_finish (reader.device, reader.result, &error);
      g_clear_object (&reader.result);
      g_object_unref (attempt.cancellable);
      for (int i = 0; i < images; i++)
        g_free ((guint8 *) frames[i].pixels);
      if (!enrolled)
        {
          printf ("fail %s %s\n", out, error->message);
        }
      else
        {
          floor_save_print (enrolled, out);
          printf ("ok %s %d\n", out, attempt.retries);
        }
      fflush (stdout);
    }
  gallery_close (&reader);
  return 0;
}
