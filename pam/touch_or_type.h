/* Touch or type (issue 39): the password or the finger at one prompt, whichever comes first.
 *
 * PAM has no way to cancel a conversation, so how the prompt is ended when the finger wins
 * depends on the program holding the conversation (prompt_choice.c chooses, by PAM_SERVICE):
 *   conversation  the program's own conversation asks, and a signal of the module's own ends its
 *                 read (prompt_conversation.c): Linux-PAM's misc_conv (su, login) and
 *                 polkit-agent-helper-1 then answer PAM_CONV_ERR and the module's verdict stands.
 *   terminal      the module asks on the controlling terminal itself and waits on the terminal
 *                 and the reader at once (prompt_terminal.c): sudo, which takes any interrupted
 *                 conversation for ^C and refuses whatever the stack then says.
 *   sequence      finger first, then the password module's prompt, as pam_fprintd does
 *                 (prompt_sequence.c): every other program, whose conversation is not known to
 *                 end cleanly on a signal (a greeter's runs a GLib loop that retries).
 *   none          no scan: the password alone (sudo -n and -S, which scripts use).
 * A typed password is handed on as PAM_AUTHTOK to the password module after this line; the
 * module never judges a password. */
#ifndef PAM_FPBRIDGE_TOUCH_OR_TYPE_H
#define PAM_FPBRIDGE_TOUCH_OR_TYPE_H

#include <security/pam_modules.h>

#include <pthread.h>

#include "evaluation_stream.h"
#include "remote_rules.h"

enum prompt_kind { PROMPT_DEFAULT, PROMPT_CONVERSATION, PROMPT_TERMINAL, PROMPT_SEQUENCE, PROMPT_NONE };

struct touch_options {
    const char *socket_path;
    enum prompt_kind prompt;     /* prompt=...; PROMPT_DEFAULT: chosen by the service */
    int timeout_seconds;         /* timeout=N: how long the reader waits; 0: the default */
    int max_tries;               /* max-tries=N: wrong fingers before the password alone */
    int password_seconds;        /* password-timeout=N: how long the terminal prompt waits for
                                    a password (sudo's passwd_timeout, 5 minutes by default) */
    struct remote_overrides remote;
};

/* What the prompts share: the handle, who is asked for, and the scan. */
struct touch_request {
    pam_handle_t *pamh;
    const char *user;
    const char *shown_user;      /* PAM_USER as the log shows it: quoted and escaped */
    const char *service;
    struct evaluation_stream *stream;
    double deadline;             /* service_now() by which every wait on fpbridged ends: one for
                                    the transaction, from the start of pam_sm_authenticate */
    int silent;                  /* PAM_SILENT: no informational or error messages */
    int password_seconds;        /* touch_options' password_seconds */
};

/* `started`: service_now() when pam_sm_authenticate began. */
int touch_or_type(pam_handle_t *pamh, int flags, const struct touch_options *options, double started);

/* The prompt kinds (each returns PAM_SUCCESS for a match; PAM_IGNORE when the password module
 * is to decide, with PAM_AUTHTOK set when a password was typed here; or a conversation error). */
int prompt_conversation(const struct touch_request *request);
int prompt_terminal(const struct touch_request *request);
int prompt_sequence(const struct touch_request *request);

/* The kind for this program (prompt_choice.c). */
enum prompt_kind prompt_for_service(const char *service);

/* Says what a line that ends or interrupts the finger means, through the conversation (or on
 * `tty_fd` when it is >= 0). Returns 1 when the finger is done (matched or refused), 0 when the
 * scan goes on (a wrong finger with tries left) or the line says nothing. */
int tell_line(const struct touch_request *request, const struct stream_line *line, int tty_fd);

/* tell_line's `tty_fd` for a line that is only logged, never shown. */
#define TELL_NOWHERE (-2)

/* The module's threads (they resend a signal until it is taken): every signal blocked in the
 * calling thread, so that the host's go to its own threads; and a wait on `changed` of
 * RESEND_MILLISECONDS at most. */
#define RESEND_MILLISECONDS 50
void block_every_signal(void);
void wait_a_little(pthread_cond_t *changed, pthread_mutex_t *lock);

/* Milliseconds left until the request's deadline (0 once it passed), for poll(). */
int left_milliseconds(const struct touch_request *request);

/* Throws away whatever was typed at the terminal `fd` and not yet read: when the finger wins,
 * nothing typed at the prompt may reach the command the program runs next (sudo -s's shell). */
void discard_typed(int fd);

/* Writes all of `text` to the terminal `fd` (a short write or EINTR goes on; an error ends it). */
void terminal_write(int fd, const char *text);

/* Asks `prompt` (echo off) through the application's conversation: PAM_SUCCESS with what was
 * typed in `*typed` (malloc'd; NULL when nothing came), or the conversation's error. */
int converse_echo_off(pam_handle_t *pamh, const char *prompt, char **typed);

/* ^C at the module's terminal prompt (prompt_interrupted.c): the password through the program's
 * own conversation, interrupted at once as a ^C at its own prompt would be. */
int prompt_interrupted(const struct touch_request *request);

/* Stores a typed password as PAM_AUTHTOK for the next module, then wipes and frees it. */
int hand_on_password(pam_handle_t *pamh, char *password);

#endif
