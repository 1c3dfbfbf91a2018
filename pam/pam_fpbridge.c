/* pam_fpbridge.so: fpbridge's own PAM module (issue 39). Its entry points and arguments.
 *
 * Why C, and why here. PAM loads a module into sudo, su, login, sshd, polkit-agent-helper-1 and
 * display managers. A Swift module would bring the Swift runtime and Foundation into each of
 * them (see MEASURED below); this one links libpam and libc alone, starts no thread, keeps no
 * global state, never touches a signal handler and closes every descriptor it opens, and is
 * small enough to read in one sitting. It lives in pam/, beside dbus/, polkit/ and systemd/
 * (what fpbridge puts into other programs' configuration), not in Sources/: it is no SwiftPM
 * target; scripts/build-pam-module.sh builds it with cc into .build/pam/pam_fpbridge.so.
 *
 * MEASURED (pamtester under pam_wrapper on the project's 2-core machine; docs/desktop.md has the
 * table): loading this module costs about 0.1 ms and 32 KiB resident; the same two entry points
 * written in Swift and doing nothing cost 3.4 ms and 5.2 MiB (the Swift runtime, 13 libraries),
 * 14 ms and 16 MiB with Foundation; the pam_exec hook it replaces, a Swift process, 29 ms.
 *
 * ARGUMENTS
 *   password-proved  The mode, and for now the only one: for the auth stack, after the password
 *                    module and reached only when it succeeded. Tells fpbridged that PAM_USER's
 *                    password was proved, which lifts that user's fingerprint lockout
 *                    (POST /v1/password-proved). The user is PAM's item PAM_USER, never the
 *                    environment's; nothing is sent when no password was read in this
 *                    transaction (PAM_AUTHTOK unset: a finger). Always returns PAM_IGNORE, so the line never changes the
 *                    stack's outcome; a failure (fpbridged down, refused, a bad answer) is one
 *                    syslog line (LOG_AUTHPRIV, LOG_ERR).
 *   socket=PATH      fpbridged's socket, an absolute path (default /run/fpbridge/fpbridged.sock).
 * An unknown argument is named in a syslog line and ignored; without a mode the line does
 * nothing (PAM_IGNORE) and says so. The touch-or-type mode will be a second mode here, in its
 * own file beside password_proved.c. */
#define PAM_SM_AUTH
#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include <string.h>
#include <syslog.h>

#include "password_proved.h"
#include "service_request.h"

/* Built with -fvisibility=hidden: these two are the only symbols the module exports. */
#define PAM_FPBRIDGE_ENTRY __attribute__((visibility("default")))

enum mode { MODE_NONE, MODE_PASSWORD_PROVED };

struct options {
    enum mode mode;
    const char *socket_path;
};

static struct options read_options(pam_handle_t *pamh, int argc, const char **argv)
{
    struct options options = { .mode = MODE_NONE, .socket_path = FPBRIDGE_SYSTEM_SOCKET };
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "password-proved") == 0)
            options.mode = MODE_PASSWORD_PROVED;
        else if (strncmp(argv[i], "socket=", 7) == 0)
            options.socket_path = argv[i] + 7;
        else
            pam_syslog(pamh, LOG_ERR, "unknown argument ignored: %s", argv[i]);
    }
    return options;
}

PAM_FPBRIDGE_ENTRY int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    (void)flags;
    struct options options = read_options(pamh, argc, argv);
    switch (options.mode) {
    case MODE_PASSWORD_PROVED:
        return password_proved(pamh, options.socket_path);
    case MODE_NONE:
        break;
    }
    pam_syslog(pamh, LOG_ERR, "no mode given (password-proved): this line does nothing");
    return PAM_IGNORE;
}

PAM_FPBRIDGE_ENTRY int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    (void)pamh;
    (void)flags;
    (void)argc;
    (void)argv;
    return PAM_IGNORE;
}
