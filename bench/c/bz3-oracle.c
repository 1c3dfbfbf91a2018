/* bz3-oracle: libfprint's own bozorth3 scores, for the matcher's score-for-score test.
 *
 *   bz3-oracle dump NAME PRINT.fp...   one "set" line per sample of each stored print
 *   bz3-oracle score < PAIRS            the same lines, each "pair" line with its score
 *
 * Lines (docs/bozorth3.md, section 11; Tests/FPMatchingTests/Fixtures/README.md):
 *   set NAME N x1 y1 t1 ... xN yN tN    a minutiae set as libfprint stores it
 *   pair PROBE GALLERY [SCORE]          PROBE and GALLERY are set names, NAME:M for its first M points
 *
 * How it scores: libfprint 1.94.5 does not export its bozorth3, but the installed
 * library is one known build, so the functions are called at their offsets in it
 * (found by disassembly, docs/bozorth3.md §11.1) after checking its build-id; any
 * other build is refused. The correspondence list is cleared before each pair:
 * the score of a pair compared first in a fresh process (the "fresh" semantics).
 * Nothing of libfprint's or NBIS's code is in here: it calls the library in place.
 * Writes the time spent inside libfprint's matcher to stderr. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <glib.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_POINTS 200
#define MAX_SETS 100000

/* The layout bozorth3 reads a sample in: a count, then three columns. */
typedef struct
{
  int count;
  int x[MAX_POINTS];
  int y[MAX_POINTS];
  int theta[MAX_POINTS];
} Sample;

typedef int (*ProbeInit) (Sample *);
typedef int (*ToGallery) (int, Sample *, Sample *);

static const char *known_build = "143eb60dc18ed3676e2af6d9772445d2eb5ebd73";
enum { OFFSET_CONTEXT_NEW = 0x138f0, OFFSET_PROBE_INIT = 0x53000, OFFSET_TO_GALLERY = 0x53120,
       OFFSET_PAIR_LIST = 0x2939c0, PAIR_LIST_BYTES = 20000 * 5 * 4 };

static char found_build[64];

static int
read_build_id (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  if (!strstr (info->dlpi_name, "libfprint-2.so"))
    return 0;
  for (int h = 0; h < info->dlpi_phnum; h++)
    {
      if (info->dlpi_phdr[h].p_type != PT_NOTE)
        continue;
      const unsigned char *p = (const unsigned char *) (info->dlpi_addr + info->dlpi_phdr[h].p_vaddr);
      const unsigned char *end = p + info->dlpi_phdr[h].p_memsz;
      while (p + sizeof (ElfW(Nhdr)) <= end)
        {
          const ElfW(Nhdr) *note = (const ElfW(Nhdr) *) p;
          const unsigned char *name = p + sizeof *note;
          const unsigned char *desc = name + ((note->n_namesz + 3) & ~3u);
          if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && memcmp (name, "GNU", 4) == 0)
            for (unsigned i = 0; i < note->n_descsz && i < 31; i++)
              sprintf (found_build + 2 * i, "%02x", desc[i]);
          p = desc + ((note->n_descsz + 3) & ~3u);
        }
    }
  return 1;
}

static ProbeInit probe_init;
static ToGallery to_gallery;
static unsigned char *pair_list;

static void
bind_matcher (void)
{
  /* Opened here: nothing else in this program calls libfprint, so the linker may have dropped it. */
  void *library = dlopen ("libfprint-2.so.2", RTLD_NOW);
  if (!library)
    {
      fprintf (stderr, "bz3-oracle: %s\n", dlerror ());
      exit (3);
    }
  dl_iterate_phdr (read_build_id, NULL);
  if (strcmp (found_build, known_build) != 0)
    {
      fprintf (stderr, "bz3-oracle: libfprint build %s is not the one whose offsets are known (%s)\n",
               found_build[0] ? found_build : "(none)", known_build);
      exit (3);
    }
  /* dlsym, not &fp_context_new: in a non-PIE program that would be the PLT stub. */
  char *base = (char *) dlsym (library, "fp_context_new") - OFFSET_CONTEXT_NEW;
  probe_init = (ProbeInit) (void *) (base + OFFSET_PROBE_INIT);
  to_gallery = (ToGallery) (void *) (base + OFFSET_TO_GALLERY);
  pair_list = (unsigned char *) base + OFFSET_PAIR_LIST;
}

static void
print_set (FILE *out, const char *name, const Sample *s)
{
  fprintf (out, "set %s %d", name, s->count);
  for (int i = 0; i < s->count; i++)
    fprintf (out, " %d %d %d", s->x[i], s->y[i], s->theta[i]);
  fputc ('\n', out);
}

/* Every sample of a stored NBIS print, read from its GVariant (libfprint.md §2). */
static int
dump (const char *prefix, int count, char **paths)
{
  for (int f = 0; f < count; f++)
    {
      gchar *bytes = NULL;
      gsize length = 0;
      if (!g_file_get_contents (paths[f], &bytes, &length, NULL) || length < 4 || memcmp (bytes, "FP3", 3) != 0)
        {
          fprintf (stderr, "bz3-oracle: %s is not a stored print\n", paths[f]);
          return 1;
        }
      GVariant *print = g_variant_new_from_data (G_VARIANT_TYPE ("(issbymsmsia{sv}v)"), bytes + 3, length - 3,
                                                 FALSE, g_free, bytes);
      GVariant *wrapped = g_variant_get_child_value (print, 9);
      GVariant *contents = g_variant_get_variant (wrapped);
      if (!g_variant_is_of_type (contents, G_VARIANT_TYPE ("(a(aiaiai))")))
        {
          fprintf (stderr, "bz3-oracle: %s is not an NBIS print\n", paths[f]);
          return 1;
        }
      GVariant *samples = g_variant_get_child_value (contents, 0);
      for (gsize i = 0; i < g_variant_n_children (samples); i++)
        {
          GVariant *sample = g_variant_get_child_value (samples, i);
          Sample s = { 0 };
          for (int column = 0; column < 3; column++)
            {
              GVariant *values = g_variant_get_child_value (sample, column);
              gsize n = 0;
              const gint32 *v = g_variant_get_fixed_array (values, &n, sizeof (gint32));
              if (n > MAX_POINTS)
                n = MAX_POINTS;
              s.count = (int) n;
              memcpy (column == 0 ? s.x : column == 1 ? s.y : s.theta, v, n * sizeof (gint32));
              g_variant_unref (values);
            }
          char name[256];
          const char *base = strrchr (paths[f], '/');
          base = base ? base + 1 : paths[f];
          snprintf (name, sizeof name, "%s%.*s.s%zu", prefix, (int) strcspn (base, "."), base, i);
          print_set (stdout, name, &s);
          g_variant_unref (sample);
        }
      g_variant_unref (samples);
      g_variant_unref (contents);
      g_variant_unref (wrapped);
      g_variant_unref (print);
    }
  return 0;
}

typedef struct
{
  char *name;
  Sample sample;
} NamedSet;

static NamedSet *sets;
static int set_count;

static const Sample *
lookup (const char *spec, Sample *cut)
{
  char name[256];
  int keep = -1;
  snprintf (name, sizeof name, "%s", spec);
  char *colon = strchr (name, ':');
  if (colon)
    {
      *colon = 0;
      keep = atoi (colon + 1);
    }
  for (int i = set_count - 1; i >= 0; i--)
    if (strcmp (sets[i].name, name) == 0)
      {
        *cut = sets[i].sample;
        if (keep >= 0 && keep < cut->count)
          cut->count = keep;
        return cut;
      }
  fprintf (stderr, "bz3-oracle: unknown set %s\n", spec);
  exit (1);
}

static int
score (void)
{
  bind_matcher ();
  sets = calloc (MAX_SETS, sizeof *sets);
  size_t capacity = 1 << 16;
  char *line = malloc (capacity);
  ssize_t length;
  double spent = 0;
  long pairs = 0;
  while ((length = getline (&line, &capacity, stdin)) > 0)
    {
      if (strncmp (line, "set ", 4) == 0)
        {
          if (set_count == MAX_SETS)
            {
              fprintf (stderr, "bz3-oracle: more than %d sets\n", MAX_SETS);
              return 1;
            }
          fputs (line, stdout);   /* before strsep cuts it */
          NamedSet *s = &sets[set_count++];
          char *cursor = line + 4;
          char *name = strsep (&cursor, " ");
          s->name = strdup (name);
          s->sample.count = (int) strtol (cursor, &cursor, 10);
          if (s->sample.count < 0 || s->sample.count > MAX_POINTS)
            {
              fprintf (stderr, "bz3-oracle: set %s has %d points\n", name, s->sample.count);
              return 1;
            }
          for (int i = 0; i < s->sample.count; i++)
            {
              s->sample.x[i] = (int) strtol (cursor, &cursor, 10);
              s->sample.y[i] = (int) strtol (cursor, &cursor, 10);
              s->sample.theta[i] = (int) strtol (cursor, &cursor, 10);
            }
        }
      else if (strncmp (line, "pair ", 5) == 0)
        {
          char probe_name[256], gallery_name[256];
          if (sscanf (line + 5, "%255s %255s", probe_name, gallery_name) != 2)
            {
              fprintf (stderr, "bz3-oracle: bad line %s", line);
              return 1;
            }
          Sample probe, gallery;
          lookup (probe_name, &probe);
          lookup (gallery_name, &gallery);
          struct timespec a, b;
          clock_gettime (CLOCK_MONOTONIC, &a);
          memset (pair_list, 0, PAIR_LIST_BYTES);
          int probe_length = probe_init (&probe);
          int result = to_gallery (probe_length, &probe, &gallery);
          clock_gettime (CLOCK_MONOTONIC, &b);
          spent += (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
          pairs++;
          printf ("pair %s %s %d\n", probe_name, gallery_name, result);
          fflush (stdout);
        }
      else
        fputs (line, stdout);
    }
  fprintf (stderr, "bz3-oracle: %ld pairs, %.3f s in libfprint's bozorth3 (%.1f us a pair)\n", pairs, spent,
           pairs ? spent / pairs * 1e6 : 0.0);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc >= 3 && strcmp (argv[1], "dump") == 0)
    return dump (argv[2], argc - 3, argv + 3);
  if (argc == 2 && strcmp (argv[1], "score") == 0)
    return score ();
  fprintf (stderr, "usage: bz3-oracle dump NAME-PREFIX PRINT.fp... | bz3-oracle score < PAIRS\n");
  return 2;
}
