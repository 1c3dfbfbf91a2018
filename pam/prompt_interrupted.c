/* ^C at sudo's prompt, asked by the module (prompt_terminal.c), ends sudo at once, as the
 * manual says (issue 49).
 *
 * Why this takes work: sudo blocks SIGINT while it authenticates and unblocks it only inside its
 * own password prompt, and a ^C counts as one there only when it lands in the prompt's read(),
 * which then fails; sudo then refuses every later prompt of the transaction and ends quietly.
 * A ^C pressed at the module's prompt waits, pending; when the password module's prompt unblocks
 * it, it is delivered before that read starts and is lost, so the user had to press ^C twice.
 * So the module itself asks the password through the program's conversation, and a thread of
 * its own sends the asking thread SIGINT every 50 ms until the conversation returns: one lands
 * in the read, exactly as the user's second ^C would. The thread is joined before returning.
 * A program that keeps SIGINT blocked in its conversation (it reads the terminal itself, with a
 * signalfd of its own) is not interrupted: its conversation asks the password, and what is
 * typed goes on as PAM_AUTHTOK, as at the module's own prompt; the ^C stays pending for it. */
#include "touch_or_type.h"

#include <security/pam_ext.h>

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

struct interrupter {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t asker;
    int asking;
};

static void *interrupt_asker(void *argument)
{
    struct interrupter *state = argument;
    block_every_signal();
    pthread_mutex_lock(&state->lock);
    while (state->asking) {
        pthread_kill(state->asker, SIGINT);
        wait_a_little(&state->changed, &state->lock);
    }
    pthread_mutex_unlock(&state->lock);
    return NULL;
}

int prompt_interrupted(const struct touch_request *request)
{
    struct interrupter state = { .asker = pthread_self(), .asking = 1 };
    pthread_mutex_init(&state.lock, NULL);
    pthread_cond_init(&state.changed, NULL);
    pthread_t thread;
    int started = pthread_create(&thread, NULL, interrupt_asker, &state) == 0;
    if (!started)
        pam_syslog(request->pamh, LOG_ERR, "^C at the prompt: cannot start the module's thread: the password module asks");
    char *typed = NULL;
    int asked = started ? converse_echo_off(request->pamh, "Password: ", &typed) : PAM_SUCCESS;
    pthread_mutex_lock(&state.lock);
    state.asking = 0;
    pthread_cond_broadcast(&state.changed);
    pthread_mutex_unlock(&state.lock);
    if (started)
        pthread_join(thread, NULL);
    pthread_cond_destroy(&state.changed);
    pthread_mutex_destroy(&state.lock);
    if (asked == PAM_SUCCESS && typed != NULL)
        return hand_on_password(request->pamh, typed);
    free(typed);
    /* Interrupted (sudo now refuses every prompt of this transaction), or nothing typed. */
    return asked == PAM_SUCCESS ? PAM_IGNORE : asked;
}
