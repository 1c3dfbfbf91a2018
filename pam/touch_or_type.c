/* The touch-or-type mode: who, whether a finger is asked for at all, the scan, the prompt. */
#include "touch_or_type.h"

#include "json_text.h"
#include "service_request.h"

#include <security/pam_ext.h>

#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* Seconds fpbridged has to answer the request's head, and to say the reader is ready or why
 * not, before the prompt goes up anyway (the finger then joins when the reader is ready). */
#define OPEN_SECONDS 5
#define READY_MILLISECONDS 2000
/* The reader's wait when the prompt is the password's too (nothing waits on it) and when it is
 * the finger's alone (the password waits: pam-auth-update's pam_fprintd line uses 10). */
#define CONCURRENT_TIMEOUT 60
#define SEQUENCE_TIMEOUT 10

/* "wait": false, always: a reader held for another request (another prompt of this user's, a
 * desktop's verify) answers readerBusy at once, and this prompt offers no finger, so a touch
 * goes to the prompt the person sees (issue 49). */
static int build_body(char *body, size_t size, const char *user, const char *service, int attempts, int timeout)
{
    size_t used = 0;
    char numbers[96];
    snprintf(numbers, sizeof numbers, ",\"attempts\":%d,\"timeoutSeconds\":%d,\"wait\":false,\"reason\":", attempts, timeout);
    body[0] = '\0';
    if (json_append_raw(body, size, &used, "{\"operation\":\"verify\",\"user\":") != 0
        || json_append_string(body, size, &used, user) != 0
        || json_append_raw(body, size, &used, numbers) != 0
        || json_append_string(body, size, &used, service) != 0)
        return -1;
    return json_append_raw(body, size, &used, "}");
}

int hand_on_password(pam_handle_t *pamh, char *password)
{
    int result = pam_set_item(pamh, PAM_AUTHTOK, password);
    explicit_bzero(password, strlen(password));
    free(password);
    if (result != PAM_SUCCESS) {
        pam_syslog(pamh, LOG_ERR, "cannot hand the typed password on: %s", pam_strerror(pamh, result));
        return result;
    }
    return PAM_IGNORE;
}

void block_every_signal(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, NULL);
}

void wait_a_little(pthread_cond_t *changed, pthread_mutex_t *lock)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += RESEND_MILLISECONDS * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec += 1;
        until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(changed, lock, &until);
}

int left_milliseconds(const struct touch_request *request)
{
    double left = request->deadline - service_now();
    return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

void discard_typed(int fd)
{
    if (fd >= 0 && isatty(fd))
        tcflush(fd, TCIFLUSH);
}

/* The application's conversation, called directly rather than through pam_prompt(), which
 * logs "conversation failed" each time the finger ends the prompt. */
int converse_echo_off(pam_handle_t *pamh, const char *prompt, char **typed)
{
    const void *item = NULL;
    if (pam_get_item(pamh, PAM_CONV, &item) != PAM_SUCCESS || item == NULL)
        return PAM_CONV_ERR;
    const struct pam_conv *conversation = item;
    if (conversation->conv == NULL)
        return PAM_CONV_ERR;
    struct pam_message message = { .msg_style = PAM_PROMPT_ECHO_OFF, .msg = prompt };
    const struct pam_message *messages[1] = { &message };
    struct pam_response *response = NULL;
    int result = conversation->conv(1, messages, &response, conversation->appdata_ptr);
    if (result == PAM_SUCCESS && response != NULL) {
        *typed = response->resp;
        free(response);
    } else if (response != NULL) {
        if (response->resp != NULL) {
            explicit_bzero(response->resp, strlen(response->resp));
            free(response->resp);
        }
        free(response);
    }
    return result;
}

/* PAM_SILENT silences what the module would send through the program's conversation; the lines
 * of a prompt the module writes on the terminal itself are that prompt's, as its text is (sudo
 * asks with PAM_SILENT by default: its pam_silent). */
static void say(const struct touch_request *request, int tty_fd, const char *text)
{
    if (tty_fd == TELL_NOWHERE || (tty_fd < 0 && request->silent))
        return;
    if (tty_fd >= 0) {
        /* The terminal prompt's own line: after the unfinished prompt, then the text. */
        terminal_write(tty_fd, "\n");
        terminal_write(tty_fd, text);
        terminal_write(tty_fd, "\n");
        return;
    }
    pam_prompt(request->pamh, PAM_ERROR_MSG, NULL, "%s", text);
}

int tell_line(const struct touch_request *request, const struct stream_line *line, int tty_fd)
{
    char text[700];
    switch (line->kind) {
    case LINE_MATCHED:
        return 1;
    case LINE_NO_MATCH:
        if (line->attempts_left == 0)
            return 0; /* the result line that follows says it */
        say(request, tty_fd, "No match. Touch the reader again, or type the password.");
        return 0;
    case LINE_FAILED:
        switch (line->code) {
        case CODE_TIMED_OUT:
            return 1; /* the reader stopped waiting; the prompt is the password's alone */
        case CODE_AUTHENTICATION_FAILED:
            say(request, tty_fd, "Fingerprint not recognised. Type the password.");
            return 1;
        case CODE_BIOMETRY_LOCKOUT:
            snprintf(text, sizeof text, "Fingerprint locked: %s", line->message);
            say(request, tty_fd, text);
            return 1;
        case CODE_READER_BUSY:
            say(request, tty_fd, "The fingerprint reader is busy with another request: type the password.");
            pam_syslog(request->pamh, LOG_NOTICE, "no finger for %s: %s", request->shown_user, line->message);
            return 1;
        default:
            pam_syslog(request->pamh, LOG_NOTICE, "no finger for %s: %s (code %d)", request->shown_user, line->message, line->code);
            return 1;
        }
    case LINE_READY:
    case LINE_OTHER:
        return 0;
    }
    return 0;
}

/* The first lines: the reader waits for the finger (go on), or fpbridged refused the scan at
 * once (locked out, nothing enrolled, no reader): then the password alone. Returns 1 to prompt
 * with the finger, 0 for the password alone. */
static int finger_offered(const struct touch_request *request, enum prompt_kind kind)
{
    double deadline = service_now() + READY_MILLISECONDS / 1000.0;
    if (deadline > request->deadline)
        deadline = request->deadline;
    for (;;) {
        struct stream_line line;
        int got = stream_next(request->stream, &line, deadline);
        if (got == 0)
            return service_now() < request->deadline;
        if (got < 0) {
            pam_syslog(request->pamh, LOG_ERR, "no finger for %s: fpbridged ended the verify without a result", request->shown_user);
            return 0;
        }
        if (line.kind == LINE_READY)
            return 1;
        if (line.kind == LINE_FAILED) {
            if (line.code == CODE_BIOMETRY_LOCKOUT || line.code == CODE_READER_BUSY) {
                /* Where the prompt would have been: the module's own terminal for sudo's. */
                int tty = kind == PROMPT_TERMINAL ? open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
                tell_line(request, &line, tty);
                if (tty >= 0)
                    close(tty);
            }
            else
                pam_syslog(request->pamh, LOG_INFO, "no finger for %s: %s", request->shown_user, line.message);
            return 0;
        }
        if (line.kind == LINE_MATCHED)
            return 1; /* cannot happen before presentFinger; the prompt takes it at once */
    }
}

int touch_or_type(pam_handle_t *pamh, int flags, const struct touch_options *options, double started)
{
    const char *user = NULL;
    int got_user = pam_get_user(pamh, &user, NULL);
    if (got_user != PAM_SUCCESS || user == NULL || user[0] == '\0') {
        pam_syslog(pamh, LOG_ERR, "no user to ask a finger of: %s", pam_strerror(pamh, got_user));
        return got_user == PAM_CONV_AGAIN ? PAM_INCOMPLETE : PAM_IGNORE;
    }
    /* The name as the log shows it: quoted, every control character escaped (a name with a
     * newline cannot forge a line). */
    char shown_user[1600];
    size_t shown_used = 0;
    if (json_append_string(shown_user, sizeof shown_user, &shown_used, user) != 0) {
        pam_syslog(pamh, LOG_ERR, "no finger: the user name is too long");
        return PAM_IGNORE;
    }
    const void *service_item = NULL;
    if (pam_get_item(pamh, PAM_SERVICE, &service_item) != PAM_SUCCESS || service_item == NULL)
        service_item = "";
    const char *service = service_item;

    char why[1024];
    if (request_is_remote(pamh, user, shown_user, &options->remote, why, sizeof why)) {
        pam_syslog(pamh, LOG_INFO, "no finger for %s: %s", shown_user, why);
        return PAM_IGNORE;
    }
    enum prompt_kind kind = options->prompt != PROMPT_DEFAULT ? options->prompt : prompt_for_service(service);
    if (kind == PROMPT_NONE)
        return PAM_IGNORE;

    int timeout = options->timeout_seconds > 0 ? options->timeout_seconds
                  : (kind == PROMPT_SEQUENCE ? SEQUENCE_TIMEOUT : CONCURRENT_TIMEOUT);
    char body[3072];
    if (build_body(body, sizeof body, user, service, options->max_tries, timeout) != 0) {
        pam_syslog(pamh, LOG_ERR, "no finger: the user or service name is too long");
        return PAM_IGNORE;
    }
    struct evaluation_stream *stream = malloc(sizeof *stream);
    if (stream == NULL)
        return PAM_BUF_ERR;
    if (stream_open(stream, options->socket_path, body, OPEN_SECONDS, why, sizeof why) != 0) {
        pam_syslog(pamh, LOG_ERR, "no finger for %s: %s", shown_user, why);
        free(stream);
        return PAM_IGNORE;
    }
    /* The scan's timeout, from the start, and a second for fpbridged to say it ended: no line the
     * daemon sends, however many, holds the login longer. */
    struct touch_request request = { .pamh = pamh, .user = user, .shown_user = shown_user, .service = service,
                                     .stream = stream, .deadline = started + OPEN_SECONDS + timeout + 1,
                                     .silent = (flags & PAM_SILENT) != 0, .password_seconds = options->password_seconds };
    int result = PAM_IGNORE;
    if (finger_offered(&request, kind)) {
        switch (kind) {
        case PROMPT_CONVERSATION: result = prompt_conversation(&request); break;
        case PROMPT_TERMINAL: result = prompt_terminal(&request); break;
        default: result = prompt_sequence(&request); break;
        }
    }
    /* Closing cancels a scan still running: fpbridged counts only scans that finished. */
    stream_close(stream);
    free(stream);
    if (result == PAM_SUCCESS)
        pam_syslog(pamh, LOG_INFO, "finger matched for %s", shown_user);
    return result;
}
