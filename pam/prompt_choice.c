/* Which prompt each program gets (touch_or_type.h says what each kind is), and why.
 *
 * Conversation: programs whose conversation is Linux-PAM's misc_conv (read() on the terminal;
 * EINTR ends it with PAM_CONV_ERR after restoring the terminal) or polkit-agent-helper-1's
 * (fgets() on the agent's pipe; EINTR ends it the same way), and which judge by what
 * pam_authenticate returns alone.
 * Terminal: sudo, reading /dev/tty as sudo itself does, unless its command line reads the
 * password elsewhere (long options read as getopt_long reads them: any unambiguous start, so
 * --std is --stdin): -S (standard input) and -n (never asks) mean a script, which gets no
 * scan; -A (an askpass program) and -p (a prompt a script may be waiting for, as Ansible's
 * become does) keep sudo's own conversation: finger, then password.
 * Sequence: everything else. */
#include "touch_or_type.h"

#include <stdio.h>
#include <string.h>

static int listed(const char *service, const char *const *names)
{
    for (; *names != NULL; names++)
        if (strcmp(service, *names) == 0)
            return 1;
    return 0;
}

/* sudo's options that take a value as the next argument (or the rest of the cluster). */
static int takes_value(char option)
{
    return strchr("CDgpRrTtUu", option) != NULL;
}

static int takes_value_long(const char *name)
{
    static const char *const with_value[] = { "close-from", "chdir", "group", "host", "prompt", "chroot", "role",
                                              "type", "command-timeout", "other-user", "user", NULL };
    return listed(name, with_value);
}

/* The long option `given` names, as sudo's getopt_long reads it: the option itself, or the one
 * option it is the start of ("--std" is --stdin). NULL when it names none or several (sudo then
 * refuses the command line itself). */
static const char *long_option(const char *given)
{
    static const char *const options[] = { "askpass", "background", "bell", "chdir", "chroot", "close-from",
                                           "command-timeout", "edit", "group", "help", "host", "list", "login",
                                           "non-interactive", "other-user", "preserve-env", "preserve-groups",
                                           "prompt", "remove-timestamp", "reset-timestamp", "role", "set-home",
                                           "shell", "stdin", "type", "user", "validate", "version", NULL };
    const char *found = NULL;
    size_t length = strlen(given);
    for (const char *const *option = options; *option != NULL; option++) {
        if (strcmp(*option, given) == 0)
            return *option;
        if (length > 0 && strncmp(*option, given, length) == 0) {
            if (found != NULL)
                return NULL;
            found = *option;
        }
    }
    return found;
}

/* The kind sudo's own options call for: sudo reads the password from the terminal unless told
 * otherwise. /proc/self/cmdline is sudo's argv, NUL-separated. */
static enum prompt_kind sudo_prompt(void)
{
    FILE *file = fopen("/proc/self/cmdline", "re");
    if (file == NULL)
        return PROMPT_SEQUENCE;
    char text[8192];
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = '\0';
    enum prompt_kind kind = PROMPT_TERMINAL;
    const char *end = text + length;
    const char *argument = text + strlen(text) + 1; /* after argv[0] */
    int skip_next = 0;
    for (; argument < end; argument += strlen(argument) + 1) {
        if (skip_next) {
            skip_next = 0;
            continue;
        }
        if (strcmp(argument, "--") == 0 || argument[0] != '-' || argument[1] == '\0')
            break; /* the command: sudo's options end */
        if (argument[1] == '-') {
            const char *name = argument + 2;
            size_t name_length = strcspn(name, "=");
            char given[32];
            snprintf(given, sizeof given, "%.*s", (int)name_length, name);
            const char *option = long_option(given);
            if (option == NULL)
                return PROMPT_SEQUENCE; /* none sudo knows: sudo refuses it; no terminal prompt of ours */
            if (strcmp(option, "stdin") == 0 || strcmp(option, "non-interactive") == 0)
                return PROMPT_NONE;
            if (strcmp(option, "askpass") == 0 || strcmp(option, "prompt") == 0)
                kind = PROMPT_SEQUENCE;
            if (name[name_length] != '=' && takes_value_long(option))
                skip_next = 1;
            continue;
        }
        for (const char *c = argument + 1; *c != '\0'; c++) {
            if (*c == 'S' || *c == 'n')
                return PROMPT_NONE;
            if (*c == 'A' || *c == 'p')
                kind = PROMPT_SEQUENCE;
            if (takes_value(*c)) {
                skip_next = c[1] == '\0';
                break;
            }
        }
    }
    return kind;
}

enum prompt_kind prompt_for_service(const char *service)
{
    static const char *const conversation[] = { "su", "su-l", "login", "polkit-1", "chfn", "chsh", NULL };
    static const char *const sudo[] = { "sudo", "sudo-i", NULL };
    if (listed(service, conversation))
        return PROMPT_CONVERSATION;
    if (listed(service, sudo))
        return sudo_prompt();
    return PROMPT_SEQUENCE;
}
