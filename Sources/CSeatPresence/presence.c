/* The presence rule (presence.h says what counts and why), on logind's own records: the files
 * sd_seat_get_active(3), sd_session_is_remote(3), sd_session_get_seat(3), sd_session_get_class(3)
 * and sd_uid_get_sessions(3) read. Reading them here keeps libsystemd out of every program that
 * loads the module. */
#include "presence.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_SIZE 8192

struct record {
    char text[RECORD_SIZE];
};

/* Reads logind's record DIR/NAME ("KEY=VALUE" lines). Returns 0, or -1 when it cannot be read
 * or does not fit (a record that large is none logind writes). */
static int read_record(const char *dir, const char *name, struct record *record)
{
    char path[256];
    if (snprintf(path, sizeof path, "%s/%s/%s", PRESENCE_LOGIND_DIR, dir, name) >= (int)sizeof path)
        return -1;
    FILE *file = fopen(path, "re");
    if (file == NULL)
        return -1;
    size_t length = fread(record->text, 1, sizeof record->text - 1, file);
    int too_long = length == sizeof record->text - 1 && fgetc(file) != EOF;
    int failed = ferror(file);
    fclose(file);
    if (too_long || failed)
        return -1;
    record->text[length] = '\0';
    return 0;
}

/* The value of KEY in the record, or "" when it has none. Copied into `out`; -1 when it does not
 * fit. */
static int record_value(const struct record *record, const char *key, char *out, size_t size)
{
    size_t key_length = strlen(key);
    out[0] = '\0';
    for (const char *line = record->text; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (length > key_length && strncmp(line, key, key_length) == 0 && line[key_length] == '=') {
            size_t value_length = length - key_length - 1;
            if (value_length >= size)
                return -1;
            memcpy(out, line + key_length + 1, value_length);
            out[value_length] = '\0';
            return 0;
        }
        if (end == NULL)
            break;
        line = end + 1;
    }
    return 0;
}

static int valid_name(const char *name)
{
    if (name[0] == '\0' || strlen(name) > 63)
        return 0;
    for (const char *c = name; *c != '\0'; c++)
        if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_')
            return 0;
    return 1;
}

/* What the module needs of one session's record. */
struct session {
    char id[64];
    uid_t uid;
    int remote;
    char seat[64];
    char state[16];
    char class[32];
    char tty[64];
};

static int read_session(const char *id, struct session *session)
{
    struct record record;
    char uid[16], remote[8];
    if (!valid_name(id) || read_record("sessions", id, &record) != 0)
        return -1;
    snprintf(session->id, sizeof session->id, "%s", id);
    if (record_value(&record, "UID", uid, sizeof uid) != 0 || record_value(&record, "REMOTE", remote, sizeof remote) != 0
        || record_value(&record, "SEAT", session->seat, sizeof session->seat) != 0
        || record_value(&record, "STATE", session->state, sizeof session->state) != 0
        || record_value(&record, "CLASS", session->class, sizeof session->class) != 0
        || record_value(&record, "TTY", session->tty, sizeof session->tty) != 0)
        return -1;
    char *end = NULL;
    errno = 0;
    unsigned long number = strtoul(uid, &end, 10);
    if (uid[0] == '\0' || *end != '\0' || errno != 0 || number >= (unsigned long)(uid_t)-1)
        return -1;
    session->uid = (uid_t)number;
    /* A record without REMOTE= says nothing about where it is: taken as remote. */
    session->remote = strcmp(remote, "0") != 0;
    return 0;
}

/* Writes the reason and answers 0: no presence. */
__attribute__((format(printf, 3, 4))) static int fail(char *why, size_t why_size, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, why_size, format, arguments);
    va_end(arguments);
    return 0;
}

/* 0 with the reason when USER has a session besides `seated` (closing ones too) that is remote,
 * on another seat or on none; 1 when she has none. A user with no record has no session. */
static int nobody_else(const char *user, uid_t uid, const char *seated, const char *seat, char *why, size_t why_size)
{
    char name[16];
    snprintf(name, sizeof name, "%u", (unsigned)uid);
    struct record record;
    if (read_record("users", name, &record) != 0)
        return seated == NULL ? 1 : fail(why, why_size, "logind has no record of %s", user);
    char sessions[2048];
    if (record_value(&record, "SESSIONS", sessions, sizeof sessions) != 0)
        return fail(why, why_size, "%s has more sessions than the module reads", user);
    for (char *cursor = sessions, *id; (id = strtok_r(cursor, " ", &cursor)) != NULL;) {
        if (seated != NULL && strcmp(id, seated) == 0)
            continue;
        struct session other;
        if (read_session(id, &other) != 0)
            return fail(why, why_size, "cannot read %s's session %s", user, id);
        /* A closing session still counts (issue 49's review): with KillUserProcesses=no an SSH
         * login that leaves a process behind stays "closing" as long as it runs, and whoever
         * holds that process can reach the desk's tmux or her manager. A user manager's own
         * session (systemd 256's class manager) is no one's login. */
        if (strncmp(other.class, "manager", 7) == 0)
            continue;
        if (other.remote)
            return fail(why, why_size, "%s is also logged in remotely (session %s)", user, id);
        if (strcmp(other.seat, seat) != 0)
            return other.seat[0] ? fail(why, why_size, "%s is also logged in at another seat (session %s)", user, id)
                                 : fail(why, why_size, "%s is also logged in without a seat (session %s)", user, id);
    }
    return 1;
}

/* "ttyN" (N 1-63) for PAM_TTY "ttyN" or "/dev/ttyN", or NULL: a virtual console. */
static const char *console_of(const char *tty)
{
    if (tty == NULL)
        return NULL;
    if (strncmp(tty, "/dev/", 5) == 0)
        tty += 5;
    if (strncmp(tty, "tty", 3) != 0 || !isdigit((unsigned char)tty[3]) || tty[3] == '0')
        return NULL;
    char *end = NULL;
    long number = strtol(tty + 3, &end, 10);
    return (*end == '\0' && number >= 1 && number <= 63) ? tty : NULL;
}

/* 1 when `console` is the one the kernel shows now. */
static int console_shown(const char *console)
{
    FILE *file = fopen(PRESENCE_ACTIVE_CONSOLE, "re");
    if (file == NULL)
        return 0;
    char shown[32] = "";
    int read = fgets(shown, sizeof shown, file) != NULL;
    fclose(file);
    shown[strcspn(shown, "\n")] = '\0';
    return read && strcmp(shown, console) == 0;
}

static struct place own_place(void)
{
    struct place unknown = { .kind = PLACE_UNKNOWN };
    FILE *file = fopen("/proc/self/cgroup", "re");
    if (file == NULL)
        return unknown;
    char text[8192];
    size_t length = fread(text, 1, sizeof text - 1, file);
    int whole = feof(file) && !ferror(file);
    fclose(file);
    if (!whole)
        return unknown;
    text[length] = '\0';
    return place_from_cgroup(text);
}

/* PAM services of display managers, whose worker authenticates from the manager's own system
 * service (in no session) for the login screen and the lock screen. A process in no session need not be root's (cron's jobs run in none), but a user
 * cannot choose the PAM service of a setuid program, and a program of her own running PAM as
 * herself asks fpbridged for no one but her. */
/* How many seats logind has; -1 when it cannot be read. */
static int seat_count(void)
{
    DIR *seats = opendir(PRESENCE_LOGIND_DIR "/seats");
    if (seats == NULL)
        return -1;
    int count = 0;
    for (struct dirent *entry; (entry = readdir(seats)) != NULL;)
        if (entry->d_name[0] != '.')
            count++;
    closedir(seats);
    return count;
}

static int display_manager(const char *service)
{
    static const char *const names[] = { "gdm-password", "gdm-fingerprint", "gdm-autologin", "lightdm", "lightdm-greeter",
                                         "sddm", "sddm-greeter", "greetd", NULL };
    for (const char *const *name = names; service != NULL && *name != NULL; name++)
        if (strcmp(service, *name) == 0)
            return 1;
    return 0;
}

/* The session `active` shown at `seat`, read into `shown`: 1 when it is a local one there,
 * active; 0 with the reason. */
static int read_shown(const char *seat, const char *active, struct session *shown, char *why, size_t why_size)
{
    if (read_session(active, shown) != 0)
        return fail(why, why_size, "cannot read the session active at %s (%s)", seat, active);
    if (shown->remote || strcmp(shown->seat, seat) != 0 || strcmp(shown->state, "active") != 0)
        return fail(why, why_size, "the session active at %s (%s) is not a local one there", seat, active);
    return 1;
}

int request_is_present(const char *user, uid_t uid, const char *service, const char *tty,
                       const struct presence_options *options, char *why, size_t why_size)
{
    const char *seat = options->seat != NULL ? options->seat : PRESENCE_DEFAULT_SEAT;
    if (!valid_name(seat))
        return fail(why, why_size, "the seat name %s is not one logind gives", seat);
    struct place place = own_place();
    if (place.kind == PLACE_UNKNOWN)
        return fail(why, why_size, "cannot tell which session the request is in (/proc/self/cgroup)");

    struct record seat_record;
    char active[64];
    if (read_record("seats", seat, &seat_record) != 0 || record_value(&seat_record, "ACTIVE", active, sizeof active) != 0)
        return fail(why, why_size, "logind has no seat %s", seat);

    const char *console = console_of(tty);
    if (active[0] == '\0') {
        /* No session shown at the seat: only a login on the console shown (getty's) is there. */
        if (place.kind == PLACE_OTHER && console != NULL && strcmp(seat, "seat0") == 0 && console_shown(console))
            return options->allow_remote_session ? 1 : nobody_else(user, uid, NULL, seat, why, why_size);
        return fail(why, why_size, "no session is active at %s", seat);
    }
    struct session shown;
    if (!read_shown(seat, active, &shown, why, why_size))
        return 0;

    int greeter = strcmp(shown.class, "greeter") == 0 || strcmp(shown.class, "lock-screen") == 0;
    switch (place.kind) {
    case PLACE_SESSION:
        if (strcmp(place.session, shown.id) != 0)
            return fail(why, why_size, "the request is in session %s, not the one active at the seat (%s)", place.session,
                        shown.id);
        if (!greeter && shown.uid != uid)
            return fail(why, why_size, "the session at the seat (%s) is another user's, not %s's", shown.id, user);
        break;
    case PLACE_USER_MANAGER:
        if (place.manager_uid != uid || shown.uid != uid || greeter)
            return fail(why, why_size, "the request is in a user manager that is not that of %s at the seat", user);
        break;
    case PLACE_OTHER:
        /* The display manager's worker: for the login screen, or the shown user's lock screen. */
        if (display_manager(service) && (greeter || shown.uid == uid)) {
            /* Which seat the worker serves is said only in PAM's environment, which the module
             * never reads (a user's ~/.pam_environment may write it): on a machine of several
             * seats another seat's greeter could start a scan here, so there the password. */
            if (seat_count() != 1)
                return fail(why, why_size, "a display manager's request on a machine of several seats names no seat");
            break;
        }
        return fail(why, why_size, "the request is in no session (a service, or a daemon)");
    case PLACE_UNKNOWN:
        break;
    }
    if (options->allow_remote_session)
        return 1;
    /* A greeter's own user is not the person: only PAM_USER's other sessions matter. */
    return nobody_else(user, uid, shown.uid == uid ? shown.id : NULL, seat, why, why_size);
}

int seat_user(const struct presence_options *options, uid_t *uid, char *session, size_t session_size, char *why,
              size_t why_size)
{
    const char *seat = options->seat != NULL ? options->seat : PRESENCE_DEFAULT_SEAT;
    if (!valid_name(seat))
        return fail(why, why_size, "the seat name %s is not one logind gives", seat);
    struct record seat_record;
    char active[64];
    if (read_record("seats", seat, &seat_record) != 0 || record_value(&seat_record, "ACTIVE", active, sizeof active) != 0)
        return fail(why, why_size, "logind has no seat %s", seat);
    if (active[0] == '\0')
        return fail(why, why_size, "no session is active at %s", seat);
    struct session shown;
    if (!read_shown(seat, active, &shown, why, why_size))
        return 0;
    /* A greeter or a lock screen is shown: nobody is signed in to act for. */
    if (strcmp(shown.class, "user") != 0)
        return fail(why, why_size, "the session active at %s (%s) is a %s's, not a user's", seat, active, shown.class);
    char name[16];
    snprintf(name, sizeof name, "uid %u", (unsigned)shown.uid);
    if (!options->allow_remote_session && !nobody_else(name, shown.uid, shown.id, seat, why, why_size))
        return 0;
    if (strlen(shown.id) >= session_size)
        return fail(why, why_size, "the session ID %s is longer than its buffer", shown.id);
    memcpy(session, shown.id, strlen(shown.id) + 1);
    *uid = shown.uid;
    return 1;
}
