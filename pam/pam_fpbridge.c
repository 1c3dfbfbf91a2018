/* pam_fpbridge.so: fpbridge's own PAM module (issue 39). Its entry points and arguments.
 *
 * Why C, and why here. PAM loads a module into sudo, su, login, sshd, polkit-agent-helper-1 and
 * display managers. A Swift module would bring the Swift runtime and Foundation into each of
 * them (see MEASURED below); this one links libpam and libc alone, keeps no global state, and
 * closes every descriptor it opens. It starts one thread and borrows one signal only while the
 * conversation prompt of touch or type is up (prompt_conversation.c), and joins the one and
 * puts the other back before returning; PamTouchOrTypeTests loads it into a host program
 * (pam/host/pam_host.c) and checks that threads, descriptors, signal actions and mask are as
 * they were. It lives in pam/, beside dbus/, polkit/ and systemd/
 * (what fpbridge puts into other programs' configuration), not in Sources/: it is no SwiftPM
 * target; scripts/build-pam-module.sh builds it with cc into .build/pam/pam_fpbridge.so.
 *
 * MEASURED (pamtester under pam_wrapper on the project's 2-core machine; docs/desktop.md has the
 * table): loading this module costs about 0.1 ms and 32 KiB resident; the same two entry points
 * written in Swift and doing nothing cost 3.4 ms and 5.2 MiB (the Swift runtime, 13 libraries),
 * 14 ms and 16 MiB with Foundation; the pam_exec hook it replaces, a Swift process, 29 ms.
 *
 * MODES (the first argument that names one; without one, touch or type)
 *   touch or type    For the auth stack, before the password module (`[success=end
 *                    default=ignore]`, then pam_unix with try_first_pass). The password or the
 *                    finger at one prompt; touch_or_type.h says how, per program. A match is
 *                    PAM_SUCCESS; a typed password goes on as PAM_AUTHTOK with PAM_IGNORE; a
 *                    refused or absent finger is PAM_IGNORE (the password module asks).
 *   password-proved  For the auth stack, after the password module and reached only when it
 *                    succeeded. Tells fpbridged that PAM_USER's password was proved, which lifts
 *                    that user's fingerprint lockout (POST /v1/password-proved). The user is
 *                    PAM's item PAM_USER, never the environment's; nothing is sent when no
 *                    password was read in this transaction (PAM_AUTHTOK unset: a finger). Always
 *                    returns PAM_IGNORE, so the line never changes the stack's outcome; a
 *                    failure (fpbridged down, refused, a bad answer) is one syslog line.
 *
 * ARGUMENTS
 *   socket=PATH      fpbridged's socket, an absolute path (default /run/fpbridge/fpbridged.sock).
 * Touch or type only:
 *   prompt=KIND      conversation, terminal, sequence or none, instead of the program's own
 *                    (prompt_choice.c); for a service file of a program the module does not know.
 *   timeout=N        seconds the reader waits (1-3600; default 60 beside a prompt, 10 alone).
 *   max-tries=N      wrong fingers before the password alone (1-5; default 3).
 *   password-timeout=N  seconds sudo's terminal prompt waits for a password (1-3600; default
 *                    300, sudo's own passwd_timeout): then sudo ends as at its own prompt.
 *   seat=NAME        the reader's logind seat (default seat0), where presence is looked for.
 *   allow-rhost, allow-ssh, allow-remote-session, allow-seatless
 *                    turn off one rule for this line (remote_rules.h; allow-seatless turns off
 *                    presence, presence.h).
 * An unknown argument or a value out of range is named in a syslog line and ignored. */
#define PAM_SM_AUTH
#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "password_proved.h"
#include "service_request.h"
#include "touch_or_type.h"

/* Built with -fvisibility=hidden: these two are the only symbols the module exports. */
#define PAM_FPBRIDGE_ENTRY __attribute__((visibility("default")))

enum mode { MODE_TOUCH_OR_TYPE, MODE_PASSWORD_PROVED };

struct options {
    enum mode mode;
    struct touch_options touch;
};

/* N from "NAME=N" when it is a whole number in [low, high]; else the line is told and `fallback`. */
static int number_argument(pam_handle_t *pamh, const char *argument, size_t name_length, int low, int high, int fallback)
{
    char *end = NULL;
    long value = strtol(argument + name_length, &end, 10);
    if (end == argument + name_length || *end != '\0' || value < low || value > high) {
        pam_syslog(pamh, LOG_ERR, "argument out of range (%d to %d) ignored: %s", low, high, argument);
        return fallback;
    }
    return (int)value;
}

static enum prompt_kind prompt_argument(pam_handle_t *pamh, const char *value)
{
    static const char *const names[] = { "conversation", "terminal", "sequence", "none" };
    static const enum prompt_kind kinds[] = { PROMPT_CONVERSATION, PROMPT_TERMINAL, PROMPT_SEQUENCE, PROMPT_NONE };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(value, names[i]) == 0)
            return kinds[i];
    pam_syslog(pamh, LOG_ERR, "unknown prompt ignored (conversation, terminal, sequence or none): %s", value);
    return PROMPT_DEFAULT;
}

static struct options read_options(pam_handle_t *pamh, int argc, const char **argv)
{
    struct options options = { .mode = MODE_TOUCH_OR_TYPE,
                               .touch = { .socket_path = FPBRIDGE_SYSTEM_SOCKET, .prompt = PROMPT_DEFAULT, .max_tries = 3,
                                          .password_seconds = 300 } };
    struct touch_options *touch = &options.touch;
    for (int i = 0; i < argc; i++) {
        const char *argument = argv[i];
        if (strcmp(argument, "password-proved") == 0)
            options.mode = MODE_PASSWORD_PROVED;
        else if (strncmp(argument, "socket=", 7) == 0)
            touch->socket_path = argument + 7;
        else if (strncmp(argument, "prompt=", 7) == 0)
            touch->prompt = prompt_argument(pamh, argument + 7);
        else if (strncmp(argument, "timeout=", 8) == 0)
            touch->timeout_seconds = number_argument(pamh, argument, 8, 1, 3600, 0);
        else if (strncmp(argument, "password-timeout=", 17) == 0)
            touch->password_seconds = number_argument(pamh, argument, 17, 1, 3600, 300);
        else if (strncmp(argument, "max-tries=", 10) == 0)
            touch->max_tries = number_argument(pamh, argument, 10, 1, 5, 3);
        else if (strcmp(argument, "allow-rhost") == 0)
            touch->remote.allow_rhost = 1;
        else if (strcmp(argument, "allow-ssh") == 0)
            touch->remote.allow_ssh = 1;
        else if (strcmp(argument, "allow-remote-session") == 0)
            touch->remote.allow_remote_session = 1;
        else if (strcmp(argument, "allow-seatless") == 0)
            touch->remote.allow_seatless = 1;
        else if (strncmp(argument, "seat=", 5) == 0)
            touch->remote.seat = argument + 5;
        else
            pam_syslog(pamh, LOG_ERR, "unknown argument ignored: %s", argument);
    }
    return options;
}

PAM_FPBRIDGE_ENTRY int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    double started = service_now();
    struct options options = read_options(pamh, argc, argv);
    switch (options.mode) {
    case MODE_PASSWORD_PROVED:
        return password_proved(pamh, options.touch.socket_path);
    case MODE_TOUCH_OR_TYPE:
        break;
    }
    return touch_or_type(pamh, flags, &options.touch, started);
}

PAM_FPBRIDGE_ENTRY int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    (void)pamh;
    (void)flags;
    (void)argc;
    (void)argv;
    return PAM_IGNORE;
}
