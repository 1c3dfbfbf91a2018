/* The program's own conversation asks "Password or finger:" while a thread of the module reads
 * the scan's lines. A match ends the prompt: the thread sends the asking thread a signal whose
 * handler does nothing and which restarts no call; the conversation's read() fails with EINTR,
 * Linux-PAM's misc_conv restores the terminal and answers PAM_CONV_ERR, and the module goes on
 * from the line, throwing away what was typed. Nothing else ends it (issue 49): a wrong finger
 * or a refusal is told on the terminal beside the prompt, whose read goes on with what was
 * already typed, so that someone else's touch cannot turn a correct password into a failure.
 *
 * What the host keeps: the signal is a real-time one the host left at its default and does not
 * block (none free: finger then password instead); its old action is put back before returning,
 * after any instance sent is taken; the thread is joined before returning, woken by shutdown()
 * of the socket if it waits there. A signal can land just before the conversation's read()
 * starts and be lost, so the thread sends it again every 50 ms until the line is taken. */
#include "touch_or_type.h"

#include <security/pam_ext.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <unistd.h>

struct race {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t asker;
    int signal_number;
    const struct touch_request *request;
    struct evaluation_stream *stream;
    int tty;           /* the controlling terminal, to tell a wrong finger on; -1 when none */
    int asking;        /* the asker is inside the conversation */
    int has_line;      /* `line` waits for the asker */
    struct stream_line line;
    int reader_done;   /* the thread stopped reading: the finger is over */
    int hung_up;       /* the asker stopped wanting lines */
};

static void interrupt_read(int signal_number)
{
    (void)signal_number; /* its only work is that the read it lands in fails with EINTR */
}

/* A real-time signal the host has at its default action and does not block, with the module's
 * handler installed; its old action in `old`. -1 when there is none. */
static int borrow_signal(struct sigaction *old)
{
    sigset_t blocked;
    if (pthread_sigmask(SIG_BLOCK, NULL, &blocked) != 0)
        return -1;
    /* From the top: glibc's own and most programs' real-time signals sit near SIGRTMIN. */
    for (int number = SIGRTMAX; number >= SIGRTMIN + 4; number--) {
        if (sigaction(number, NULL, old) != 0 || sigismember(&blocked, number))
            continue;
        if ((old->sa_flags & SA_SIGINFO) || old->sa_handler != SIG_DFL)
            continue;
        struct sigaction ours;
        memset(&ours, 0, sizeof ours);
        ours.sa_handler = interrupt_read;
        sigemptyset(&ours.sa_mask);
        ours.sa_flags = 0; /* no SA_RESTART: the read fails instead of going on */
        if (sigaction(number, &ours, NULL) == 0)
            return number;
    }
    return -1;
}

/* Takes any instance still pending for this thread, then puts the host's action back. */
static void give_back_signal(int number, const struct sigaction *old)
{
    sigset_t only, before;
    sigemptyset(&only);
    sigaddset(&only, number);
    pthread_sigmask(SIG_BLOCK, &only, &before);
    struct timespec now = { 0, 0 };
    while (sigtimedwait(&only, NULL, &now) == number) {
    }
    sigaction(number, old, NULL);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
}

/* A line that does not end the prompt: told on the terminal beside it, the prompt written again
 * (the conversation's read goes on, so what was typed so far stays; issue 49), or only logged
 * when the conversation has no terminal (polkit's agent). Returns 1 when the finger is over. */
static int tell_beside(struct race *race, const struct stream_line *line)
{
    int done = tell_line(race->request, line, race->tty >= 0 ? race->tty : TELL_NOWHERE);
    if (race->tty >= 0 && !race->request->silent && (line->kind == LINE_NO_MATCH || line->code != CODE_TIMED_OUT))
        terminal_write(race->tty, done ? "Password: " : "Password or finger: ");
    return done;
}

static void *read_scan(void *argument)
{
    struct race *race = argument;
    /* Every signal blocked here: the host's go to its own threads, as before the module. */
    block_every_signal();
    for (;;) {
        struct stream_line line;
        int got = stream_next(race->stream, &line, race->request->deadline);
        pthread_mutex_lock(&race->lock);
        if (got != 1 || race->hung_up) {
            /* Ended without a word for the user: the prompt stays, the password's alone. */
            race->reader_done = 1;
            pthread_cond_broadcast(&race->changed);
            pthread_mutex_unlock(&race->lock);
            return NULL;
        }
        if (line.kind != LINE_MATCHED) {
            pthread_mutex_unlock(&race->lock);
            if (line.kind == LINE_READY || line.kind == LINE_OTHER || !tell_beside(race, &line))
                continue;
            pthread_mutex_lock(&race->lock);
            race->reader_done = 1;
            pthread_cond_broadcast(&race->changed);
            pthread_mutex_unlock(&race->lock);
            return NULL;
        }
        /* A match alone ends the prompt. */
        race->line = line;
        race->has_line = 1;
        while (race->has_line && !race->hung_up) {
            if (race->asking)
                pthread_kill(race->asker, race->signal_number);
            wait_a_little(&race->changed, &race->lock);
        }
        race->reader_done = 1;
        pthread_cond_broadcast(&race->changed);
        pthread_mutex_unlock(&race->lock);
        return NULL;
    }
}

/* The conversation, with the thread reading. */
static int ask(const struct touch_request *request, struct race *race)
{
    for (;;) {
        pthread_mutex_lock(&race->lock);
        if (race->has_line) {
            struct stream_line line = race->line;
            race->has_line = 0;
            pthread_cond_broadcast(&race->changed);
            pthread_mutex_unlock(&race->lock);
            if (tell_line(request, &line, TELL_NOWHERE) && line.kind == LINE_MATCHED) {
                /* Whatever was typed before the touch goes nowhere: not to the next prompt, not
                 * to the command the program runs (misc_conv reads standard input). */
                discard_typed(STDIN_FILENO);
                discard_typed(race->tty);
                return PAM_SUCCESS;
            }
            continue;
        }
        race->asking = 1;
        pthread_mutex_unlock(&race->lock);

        char *typed = NULL;
        int asked = converse_echo_off(request->pamh, "Password or finger: ", &typed);

        pthread_mutex_lock(&race->lock);
        race->asking = 0;
        int matched = race->has_line && race->line.kind == LINE_MATCHED;
        int has_line = race->has_line;
        pthread_mutex_unlock(&race->lock);

        if (asked == PAM_SUCCESS && typed != NULL) {
            if (matched) {
                /* Both at once: the finger's match stands; the password was not needed. */
                explicit_bzero(typed, strlen(typed));
                free(typed);
                return PAM_SUCCESS;
            }
            return hand_on_password(request->pamh, typed);
        }
        free(typed);
        if (has_line)
            continue; /* the thread ended the prompt: the loop tells its line */
        /* Ended by the user (^D) or by the conversation failing: the password module asks. */
        return asked == PAM_SUCCESS ? PAM_IGNORE : asked;
    }
}

int prompt_conversation(const struct touch_request *request)
{
    struct race *race = calloc(1, sizeof *race);
    if (race == NULL)
        return PAM_BUF_ERR;
    struct sigaction old;
    race->signal_number = borrow_signal(&old);
    if (race->signal_number < 0) {
        pam_syslog(request->pamh, LOG_NOTICE, "no free real-time signal to end the prompt with: finger, then password");
        free(race);
        return prompt_sequence(request);
    }
    pthread_mutex_init(&race->lock, NULL);
    pthread_cond_init(&race->changed, NULL);
    race->asker = pthread_self();
    race->request = request;
    race->stream = request->stream;
    race->tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

    pthread_t reader;
    int result;
    if (pthread_create(&reader, NULL, read_scan, race) != 0) {
        pam_syslog(request->pamh, LOG_ERR, "cannot start the module's reading thread: finger, then password");
        give_back_signal(race->signal_number, &old);
        result = prompt_sequence(request);
    } else {
        result = ask(request, race);
        pthread_mutex_lock(&race->lock);
        race->hung_up = 1;
        pthread_cond_broadcast(&race->changed);
        pthread_mutex_unlock(&race->lock);
        stream_hang_up(request->stream);
        pthread_join(reader, NULL);
        give_back_signal(race->signal_number, &old);
    }
    if (race->tty >= 0)
        close(race->tty);
    pthread_cond_destroy(&race->changed);
    pthread_mutex_destroy(&race->lock);
    free(race);
    return result;
}
