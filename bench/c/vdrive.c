/* vdrive: runs one command and plays the finger on libfprint's virtual
 * readers while it runs, so that every program under test (fpbridge, the C
 * floor, fprintd's clients) is timed with the same harness.
 *
 *   vdrive [--device SOCKET] [--scan ID]... [--image SOCKET] [--frame PGM]...
 *          [--after TEXT] [--rss FILE] [--timeout S] -- COMMAND [ARG]...
 *
 * --device: virtual_device; each --scan sends "SCAN ID", one connection per
 *   command, read to EOF before the next (libfprint drops a command whose
 *   connection is replaced before it was read).
 * --image: virtual_image; the --frame images go on one connection, the first
 *   at once, later ones --pace milliseconds apart (default 600: frames sent
 *   back to back trip an assertion in libfprint).
 * The first command is sent once the reader listens (libfprint creates the
 * socket at open), or, with --after, once the command printed TEXT on stdout
 * (fprintd-verify loses a result that arrives before its VerifyStart reply).
 * --rss appends the command's peak resident set (kB) to FILE.
 * Exit status: the command's; 124 if it outlived --timeout (default 60 s). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ITEMS 64

static const char *device_socket, *image_socket, *after, *rss_file;
static const char *scans[MAX_ITEMS], *frames[MAX_ITEMS];
static int nscans, nframes, pace_ms = 600;
static double timeout_s = 60;
static volatile pid_t child;
static volatile sig_atomic_t timed_out;

static void
on_alarm (int signal)
{
  (void) signal;
  timed_out = 1;
  kill (child, SIGKILL);
}

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void
sleep_ms (int ms)
{
  struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
  nanosleep (&t, NULL);
}

/* Connects to a reader's socket, retrying every millisecond until it listens. */
static int
connect_reader (const char *path, double deadline)
{
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  strncpy (address.sun_path, path, sizeof address.sun_path - 1);
  for (;;)
    {
      int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (connect (fd, (struct sockaddr *) &address, sizeof address) == 0)
        return fd;
      close (fd);
      if (now () > deadline)
        return -1;
      sleep_ms (1);
    }
}

static int
send_command (const char *path, const char *command, double deadline)
{
  int fd = connect_reader (path, deadline);
  if (fd < 0)
    return -1;
  if (write (fd, command, strlen (command)) < 0)
    perror ("vdrive: write");
  shutdown (fd, SHUT_WR);
  char buffer[1024];
  while (read (fd, buffer, sizeof buffer) > 0)
    ;
  close (fd);
  return 0;
}

static int
write_all (int fd, const void *data, size_t length)
{
  const char *p = data;
  while (length > 0)
    {
      ssize_t n = write (fd, p, length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      p += n;
      length -= (size_t) n;
    }
  return 0;
}

/* Sends one binary PGM (P5, 8 bit) as a virtual_image frame. */
static int
send_frame (int fd, const char *path)
{
  FILE *file = fopen (path, "rb");
  if (!file)
    {
      perror (path);
      return -1;
    }
  int width, height, maxval;
  char magic[3] = { 0 };
  int ok = fscanf (file, "%2s", magic) == 1 && strcmp (magic, "P5") == 0;
  /* Comments are not written by the generator; a comment line would fail here. */
  ok = ok && fscanf (file, "%d %d %d", &width, &height, &maxval) == 3 && maxval < 256;
  ok = ok && fgetc (file) != EOF;
  size_t size = (size_t) width * (size_t) height;
  unsigned char *pixels = ok ? malloc (size) : NULL;
  ok = ok && pixels && fread (pixels, 1, size, file) == size;
  fclose (file);
  if (!ok)
    {
      fprintf (stderr, "vdrive: %s is not an 8-bit binary PGM\n", path);
      free (pixels);
      return -1;
    }
  int header[2] = { width, height };
  int result = write_all (fd, header, sizeof header) || write_all (fd, pixels, size) ? -1 : 0;
  free (pixels);
  return result;
}

static void
usage (void)
{
  fprintf (stderr, "usage: vdrive [--device SOCKET] [--scan ID]... [--image SOCKET] [--frame PGM]... "
                   "[--pace MS] [--after TEXT] [--rss FILE] [--timeout S] -- COMMAND [ARG]...\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  int i = 1;
  for (; i < argc && strcmp (argv[i], "--") != 0; i++)
    {
      const char *option = argv[i];
      if (i + 1 >= argc)
        usage ();
      const char *value = argv[++i];
      if (!strcmp (option, "--device"))
        device_socket = value;
      else if (!strcmp (option, "--image"))
        image_socket = value;
      else if (!strcmp (option, "--scan") && nscans < MAX_ITEMS)
        scans[nscans++] = value;
      else if (!strcmp (option, "--frame") && nframes < MAX_ITEMS)
        frames[nframes++] = value;
      else if (!strcmp (option, "--pace"))
        pace_ms = atoi (value);
      else if (!strcmp (option, "--after"))
        after = value;
      else if (!strcmp (option, "--rss"))
        rss_file = value;
      else if (!strcmp (option, "--timeout"))
        timeout_s = atof (value);
      else
        usage ();
    }
  if (i + 1 >= argc)
    usage ();
  char **command = argv + i + 1;
  double deadline = now () + timeout_s;

  int out[2] = { -1, -1 };
  if (after && pipe2 (out, O_CLOEXEC) != 0)
    return perror ("vdrive: pipe"), 3;
  child = fork ();
  if (child == 0)
    {
      if (after)
        dup2 (out[1], STDOUT_FILENO);
      execvp (command[0], command);
      fprintf (stderr, "vdrive: cannot run %s: %s\n", command[0], strerror (errno));
      _exit (127);
    }
  struct sigaction action = { .sa_handler = on_alarm };
  sigaction (SIGALRM, &action, NULL);
  alarm ((unsigned) (timeout_s + 0.999));
  int failed = 0;
  if (after)
    {
      /* Echo the command's output, and go on once TEXT has appeared. */
      close (out[1]);
      char seen[8192];
      size_t used = 0;
      int found = 0;
      while (!found)
        {
          ssize_t n = read (out[0], seen + used, sizeof seen - 1 - used);
          if (n <= 0)
            break;
          fwrite (seen + used, 1, (size_t) n, stdout);
          used += (size_t) n;
          seen[used] = 0;
          found = strstr (seen, after) != NULL;
          if (used > sizeof seen / 2)
            {
              memmove (seen, seen + used - 256, 256);
              used = 256;
            }
        }
      fflush (stdout);
      if (!found)
        {
          fprintf (stderr, "vdrive: the command never printed \"%s\"\n", after);
          failed = 1;
        }
    }
  for (int k = 0; !failed && device_socket && k < nscans; k++)
    {
      char text[1100];
      snprintf (text, sizeof text, "SCAN %s", scans[k]);
      if (send_command (device_socket, text, deadline) != 0)
        {
          fprintf (stderr, "vdrive: no virtual_device listening on %s\n", device_socket);
          failed = 1;
        }
    }
  int image_fd = -1;
  if (!failed && image_socket && nframes > 0)
    {
      image_fd = connect_reader (image_socket, deadline);
      if (image_fd < 0)
        {
          fprintf (stderr, "vdrive: no virtual_image listening on %s\n", image_socket);
          failed = 1;
        }
      for (int k = 0; image_fd >= 0 && k < nframes; k++)
        {
          if (k > 0)
            sleep_ms (pace_ms);
          if (send_frame (image_fd, frames[k]) != 0)
            {
              failed = 1;
              break;
            }
        }
    }
  if (failed)
    kill (child, SIGTERM);

  /* Echo what the command still prints, then reap it; SIGALRM ends a command
   * that outlives the deadline. */
  if (after)
    {
      char buffer[4096];
      ssize_t n;
      while ((n = read (out[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
          fwrite (buffer, 1, (size_t) n, stdout);
    }
  int status = 0;
  struct rusage usage;
  while (wait4 (child, &status, 0, &usage) < 0 && errno == EINTR)
    ;
  if (timed_out)
    {
      fprintf (stderr, "vdrive: %s still running after %.0f s, killed\n", command[0], timeout_s);
      return 124;
    }
  if (image_fd >= 0)
    close (image_fd);
  if (rss_file)
    {
      FILE *file = fopen (rss_file, "a");
      if (file)
        {
          fprintf (file, "%ld\n", usage.ru_maxrss);
          fclose (file);
        }
    }
  if (failed)
    return 3;
  if (WIFSIGNALED (status))
    {
      fprintf (stderr, "vdrive: %s died of signal %d\n", command[0], WTERMSIG (status));
      return 128 + WTERMSIG (status);
    }
  return WEXITSTATUS (status);
}
