/* sudo's prompt, asked by the module on the controlling terminal, as sudo itself would ask it
 * (/dev/tty, echo off, a line at a time), while poll() waits on the terminal and the scan at
 * once. Nothing is interrupted: whichever is readable first wins. A wrong finger's line is
 * written and the prompt again; what was typed so far stays in the terminal's line and is
 * kept.
 *
 * ^C: sudo blocks SIGINT and SIGQUIT while it authenticates and unblocks them only inside its
 * own password prompt, so a ^C here would wait, pending, until after the prompt. The module
 * watches for them with a signalfd it never reads (poll() sees a blocked signal pending; the
 * signal stays sudo's): on ^C it ends its prompt and interrupts the program's own
 * (prompt_interrupted.c), which ends sudo, as one ^C always does. In a program that does not
 * block them, ^C is the program's: its action for the signal happens, as at any prompt (a
 * handler that returns ends no wait). */
#include "touch_or_type.h"

#include <security/pam_ext.h>

#include "service_request.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <syslog.h>
#include <termios.h>
#include <unistd.h>

#define PASSWORD_SIZE 512 /* PAM_MAX_RESP_SIZE */
/* How often the prompt looks at the terminal's modes and the deadline while nothing happens. */
#define TICK_MILLISECONDS 100

void terminal_write(int fd, const char *text)
{
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(fd, text, length);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return;
        text += written;
        length -= (size_t)written;
    }
}

/* A line from the terminal (canonical mode: poll() said a whole line is there). Returns the
 * password without its newline (malloc'd), or NULL for end of input (^D at an empty line). */
static char *read_password(int fd)
{
    char line[PASSWORD_SIZE];
    ssize_t count;
    do {
        count = read(fd, line, sizeof line - 1);
    } while (count < 0 && errno == EINTR);
    if (count <= 0)
        return NULL;
    size_t length = (size_t)count;
    if (line[length - 1] != '\n') {
        /* Longer than any password PAM takes: the rest is thrown away, not left for the next
         * reader (the command), and nothing is handed on. */
        tcflush(fd, TCIFLUSH);
        explicit_bzero(line, sizeof line);
        return NULL;
    }
    length--;
    line[length] = '\0';
    char *password = strdup(line);
    explicit_bzero(line, sizeof line);
    return password;
}

/* A signalfd for the keyboard's signals that this thread blocks (sudo's), or -1. */
static int watch_keyboard_signals(void)
{
    sigset_t blocked, keys;
    if (pthread_sigmask(SIG_BLOCK, NULL, &blocked) != 0)
        return -1;
    sigemptyset(&keys);
    int any = 0;
    const int numbers[] = { SIGINT, SIGQUIT };
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        if (sigismember(&blocked, numbers[i]) == 1) {
            sigaddset(&keys, numbers[i]);
            any = 1;
        }
    return any ? signalfd(-1, &keys, SFD_CLOEXEC | SFD_NONBLOCK) : -1;
}

/* Echo back off when something turned it on while the prompt is up: after ^Z and fg the shell
 * has put its own modes back. Only while the process is the terminal's foreground: a
 * background tcsetattr would stop it (SIGTTOU). */
static void keep_quiet(int tty, const struct termios *quiet)
{
    struct termios now;
    if (tcgetpgrp(tty) != getpgrp() || tcgetattr(tty, &now) != 0)
        return;
    if ((now.c_lflag & (ECHO | ECHONL | ICANON)) != (quiet->c_lflag & (ECHO | ECHONL | ICANON)))
        tcsetattr(tty, TCSANOW, quiet);
}

int prompt_terminal(const struct touch_request *request)
{
    int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    struct termios before;
    if (tty < 0 || tcgetattr(tty, &before) != 0) {
        if (tty >= 0)
            close(tty);
        pam_syslog(request->pamh, LOG_INFO, "no terminal to ask on: finger, then password");
        return prompt_sequence(request);
    }
    struct termios quiet = before;
    quiet.c_lflag &= (tcflag_t)~(ECHO | ECHONL);
    quiet.c_lflag |= ICANON;
    /* TCSANOW, not TCSAFLUSH: a password typed ahead of the prompt is kept. */
    tcsetattr(tty, TCSANOW, &quiet);

    char prompt[320];
    snprintf(prompt, sizeof prompt, "[%s] password or finger for %s: ", request->service, request->user);
    terminal_write(tty, prompt);
    int keyboard = watch_keyboard_signals();
    int finger_on = 1, interrupted = 0;
    int result = PAM_IGNORE;
    /* sudo's own prompt gives up after passwd_timeout; so does this one, and then ends sudo as
     * sudo's would (prompt_interrupted.c), rather than wait on the terminal for ever. */
    double password_deadline = service_now() + request->password_seconds;
    for (;;) {
        if (service_now() >= password_deadline) {
            pam_syslog(request->pamh, LOG_NOTICE, "no password within %d s at the prompt", request->password_seconds);
            /* Interrupted as ^C only where the program blocks SIGINT (sudo): elsewhere the
             * signal's default would end the program; the password module asks instead. */
            interrupted = keyboard >= 0;
            break;
        }
        if (finger_on && service_now() >= request->deadline) {
            /* The transaction's deadline: the finger is over, the prompt goes on for the password. */
            finger_on = 0;
            snprintf(prompt, sizeof prompt, "[%s] password for %s: ", request->service, request->user);
        }
        /* A negative fd is skipped by poll(): the keyboard's when none is watched, the scan's once it ended. */
        struct pollfd waits[3] = { { .fd = tty, .events = POLLIN }, { .fd = keyboard, .events = POLLIN },
                                   { .fd = finger_on ? request->stream->fd : -1, .events = POLLIN } };
        int tick = finger_on && left_milliseconds(request) < TICK_MILLISECONDS ? left_milliseconds(request) : TICK_MILLISECONDS;
        int ready = poll(waits, 3, tick);
        keep_quiet(tty, &quiet);
        if (ready < 0 && errno == EINTR)
            continue; /* a signal the program handles (SIGWINCH, SIGCHLD) ends no prompt */
        if (ready < 0) {
            pam_syslog(request->pamh, LOG_ERR, "cannot wait on the terminal: %m");
            break;
        }
        if (ready == 0)
            continue;
        if (waits[1].revents & POLLIN) {
            pam_syslog(request->pamh, LOG_INFO, "^C at the prompt: no finger; the program's own prompt is interrupted as ^C would");
            interrupted = 1;
            break;
        }
        if (waits[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            char *password = read_password(tty);
            if (password != NULL)
                result = hand_on_password(request->pamh, password);
            break;
        }
        if (!(finger_on && (waits[2].revents & (POLLIN | POLLHUP | POLLERR))))
            continue;
        struct stream_line line;
        int got = 0;
        int done = 0;
        while (!done && (got = stream_next(request->stream, &line, 0)) == 1) {
            if (tell_line(request, &line, tty)) {
                done = 1;
                if (line.kind == LINE_MATCHED)
                    result = PAM_SUCCESS;
            } else if (line.kind == LINE_NO_MATCH) {
                terminal_write(tty, prompt);
            }
        }
        if (result == PAM_SUCCESS) {
            /* What was typed before the touch is thrown away: never the command's input (the
             * shell of sudo -s would run it and keep it in its history). */
            discard_typed(tty);
            break;
        }
        if (done || got < 0) {
            /* The finger is over; the same prompt goes on, for the password alone. */
            finger_on = 0;
            snprintf(prompt, sizeof prompt, "[%s] password for %s: ", request->service, request->user);
            if (done && line.kind == LINE_FAILED && line.code != CODE_TIMED_OUT)
                terminal_write(tty, prompt);
        }
    }
    /* The terminal exactly as it was, whatever happened while the prompt was up. */
    tcsetattr(tty, TCSANOW, &before);
    terminal_write(tty, "\n");
    close(tty);
    if (keyboard >= 0)
        close(keyboard);
    if (interrupted) {
        stream_hang_up(request->stream); /* the scan is cancelled: it counts nothing */
        return prompt_interrupted(request);
    }
    return result;
}
