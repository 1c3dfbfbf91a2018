/* Shared by the gallery programs: one process that opens libfprint's
 * virtual_image reader and plays its own finger into it, one frame each
 * time the reader asks for a finger.
 *
 * Why in-process and driven by finger-status: frames sent back to back trip
 * libfprint's image-state assertion, and a fixed pace (vdrive's 600 ms) would
 * make a 1,000-finger gallery take most of an hour. The reader reports
 * FP_FINGER_STATUS_NEEDED exactly when it waits for the next touch, so the
 * next frame goes out then and not earlier. */
#ifndef GALLERY_H
#define GALLERY_H

#include "floor.h"
#include <errno.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define GALLERY_MAX_FRAMES 16

/* One image to play: 8-bit grey, row-major. */
typedef struct
{
  const guint8 *pixels;
  int width, height;
} GalleryFrame;

typedef struct
{
  FpDevice *device;
  int fd;                   /* our end of the reader's socket */
  /* The images to play, in turn: request k gets frames[k % frame_count]. One frame
   * (gallery_set_frame) makes virtual_image's usual print, one image in all 5 samples;
   * several (gallery_set_frames) make a print of distinct samples, as a real reader's. */
  GalleryFrame frames[GALLERY_MAX_FRAMES];
  int frame_count;          /* 0: nothing to play */
  const guint8 *frame;      /* frames[0].pixels, or NULL once the caller is done with it */
  int frames_sent;
  gboolean done;            /* the running operation has finished */
  GAsyncResult *result;
} GalleryReader;

/* Reads an 8-bit binary PGM (no comments, as synth.py writes them). */
static inline guint8 *
gallery_read_pgm (const char *path, int *width, int *height)
{
  g_autoptr(GError) error = NULL;
  gchar *bytes = NULL;
  gsize length = 0;
  if (!g_file_get_contents (path, &bytes, &length, &error))
    floor_die (path, error);
  int maxval = 0, consumed = 0;
  if (sscanf (bytes, "P5 %d %d %d%n", width, height, &maxval, &consumed) != 3 || maxval > 255
      || (gsize) consumed + 1 + (gsize) (*width) * (gsize) (*height) > length)
    floor_die (path, NULL);
  guint8 *pixels = g_memdup2 (bytes + consumed + 1, (gsize) (*width) * (gsize) (*height));
  g_free (bytes);
  return pixels;
}

static inline void
gallery_write_all (int fd, const void *data, gsize length)
{
  const guint8 *p = data;
  while (length > 0)
    {
      ssize_t n = write (fd, p, length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        floor_die ("write to the reader's socket", NULL);
      p += n;
      length -= (gsize) n;
    }
}

static void
gallery_on_finger_status (GObject *object, GParamSpec *pspec, gpointer data)
{
  (void) object;
  (void) pspec;
  GalleryReader *reader = data;
  FpFingerStatusFlags status = fp_device_get_finger_status (reader->device);
  if (!(status & FP_FINGER_STATUS_NEEDED) || (status & FP_FINGER_STATUS_PRESENT) || !reader->frame
      || reader->frame_count == 0)
    return;
  const GalleryFrame *frame = &reader->frames[reader->frames_sent % reader->frame_count];
  gint32 header[2] = { frame->width, frame->height };
  gallery_write_all (reader->fd, header, sizeof header);
  gallery_write_all (reader->fd, frame->pixels, (gsize) frame->width * (gsize) frame->height);
  reader->frames_sent++;
}

/* Opens the first reader (FP_DRIVERS_WHITELIST=virtual_image) and connects to its socket. */
static inline void
gallery_open (GalleryReader *reader, FpContext *context)
{
  memset (reader, 0, sizeof *reader);
  reader->device = floor_open (context);
  const char *path = g_getenv ("FP_VIRTUAL_IMAGE");
  if (!path)
    floor_die ("FP_VIRTUAL_IMAGE is not set", NULL);
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  g_strlcpy (address.sun_path, path, sizeof address.sun_path);
  reader->fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  /* The listener exists from open on; the kernel completes the connection before libfprint accepts it. */
  if (connect (reader->fd, (struct sockaddr *) &address, sizeof address) != 0)
    floor_die ("connect to the reader's socket", NULL);
  g_signal_connect (reader->device, "notify::finger-status", G_CALLBACK (gallery_on_finger_status), reader);
}

static inline void
gallery_close (GalleryReader *reader)
{
  close (reader->fd);
  floor_close (reader->device);
}

static void
gallery_finished (GObject *object, GAsyncResult *result, gpointer data)
{
  (void) object;
  GalleryReader *reader = data;
  reader->result = g_object_ref (result);
  reader->done = TRUE;
}

/* Iterates the default context until the operation started last has finished;
 * the caller then takes reader->result (and unrefs it). */
static inline void
gallery_wait (GalleryReader *reader)
{
  while (!reader->done)
    g_main_context_iteration (NULL, TRUE);
  reader->done = FALSE;
}

/* Plays these frames in turn from the next request on (count at most GALLERY_MAX_FRAMES). */
static inline void
gallery_set_frames (GalleryReader *reader, const GalleryFrame *frames, int count)
{
  if (count < 1 || count > GALLERY_MAX_FRAMES)
    floor_die ("gallery_set_frames: frame count", NULL);
  memcpy (reader->frames, frames, sizeof frames[0] * (gsize) count);
  reader->frame_count = count;
  reader->frame = frames[0].pixels;
  reader->frames_sent = 0;
}

static inline void
gallery_set_frame (GalleryReader *reader, const guint8 *pixels, int width, int height)
{
  GalleryFrame frame = { pixels, width, height };
  gallery_set_frames (reader, &frame, 1);
}

static inline double
gallery_seconds (void)
{
  return g_get_monotonic_time () / 1e6;
}

#endif
