/* Shared helpers for the C floor: the least a program must do with libfprint
 * to enumerate, enroll, verify or identify. Single-threaded: the *_sync calls
 * iterate the default GMainContext on this thread, as libfprint expects. */
#ifndef FLOOR_H
#define FLOOR_H

#include <fprint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void
floor_die (const char *what, GError *error)
{
  fprintf (stderr, "floor: %s: %s\n", what, error ? error->message : "failed");
  exit (3);
}

/* The first reader libfprint finds (FP_DRIVERS_WHITELIST picks the virtual one). */
static inline FpDevice *
floor_first_device (FpContext *context)
{
  GPtrArray *devices = fp_context_get_devices (context);
  if (!devices || devices->len == 0)
    floor_die ("no reader", NULL);
  return g_object_ref (g_ptr_array_index (devices, 0));
}

static inline FpDevice *
floor_open (FpContext *context)
{
  g_autoptr(GError) error = NULL;
  FpDevice *device = floor_first_device (context);
  if (!fp_device_open_sync (device, NULL, &error))
    floor_die ("open", error);
  return device;
}

static inline void
floor_close (FpDevice *device)
{
  g_autoptr(GError) error = NULL;
  if (!fp_device_close_sync (device, NULL, &error))
    floor_die ("close", error);
  g_object_unref (device);
}

/* Reads a print serialised by fp_print_serialize (the format fprintd stores). */
static inline FpPrint *
floor_load_print (const char *path)
{
  g_autoptr(GError) error = NULL;
  gchar *bytes = NULL;
  gsize length = 0;
  if (!g_file_get_contents (path, &bytes, &length, &error))
    floor_die (path, error);
  if (length <= 3)
    floor_die (path, NULL);
  FpPrint *print = fp_print_deserialize ((guchar *) bytes, length, &error);
  g_free (bytes);
  if (!print)
    floor_die (path, error);
  return print;
}

static inline void
floor_save_print (FpPrint *print, const char *path)
{
  g_autoptr(GError) error = NULL;
  guchar *bytes = NULL;
  gsize length = 0;
  if (!fp_print_serialize (print, &bytes, &length, &error))
    floor_die ("serialize", error);
  if (!g_file_set_contents (path, (const gchar *) bytes, length, &error))
    floor_die (path, error);
  g_free (bytes);
}

#endif
