/* Where the process is, from its cgroup, as sd_pid_get_session(3) and sd_pid_get_owner_uid(3)
 * find it: below the root of systemd's tree (PID 1's cgroup less "/init.scope", which in a
 * container is the container's), skip the slices; the first unit is the place. A logind session
 * is a scope `session-ID.scope`, a user manager `user@UID.service`. A unit a user starts in her
 * own manager (`systemd-run --user --scope --unit session-9`) sits below user@UID.service and
 * so is the manager's place, never a session's: only root creates units among the slices. */
#include "presence.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_SIZE 2048

/* The path of the line for systemd's tree: `0::PATH` (unified) or `N:name=systemd:PATH`
 * (named, legacy and hybrid). `which` 0 for unified, 1 for named. Returns 0 when found. */
static int hierarchy_path(const char *text, int which, char *path, size_t size)
{
    for (const char *line = text; line != NULL && *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        const char *value = NULL;
        if (which == 0 && length >= 3 && strncmp(line, "0::", 3) == 0)
            value = line + 3;
        else if (which == 1) {
            const char *named = memchr(line, ':', length);
            if (named != NULL && (size_t)(line + length - named) > 14 && strncmp(named, ":name=systemd:", 14) == 0)
                value = named + 14;
        }
        if (value != NULL) {
            size_t value_length = length - (size_t)(value - line);
            if (value_length == 0 || value_length >= size || value[0] != '/')
                return -1;
            memcpy(path, value, value_length);
            path[value_length] = '\0';
            return 0;
        }
        line = end ? end + 1 : NULL;
    }
    return -1;
}

/* PID 1's path in the same tree less its "/init.scope": the root systemd counts from. -1 when
 * it cannot be read. */
static int tree_root(int which, char *root, size_t size)
{
    root[0] = '\0';
    FILE *file = fopen("/proc/1/cgroup", "re");
    if (file == NULL)
        return -1;
    char text[4096];
    size_t length = fread(text, 1, sizeof text - 1, file);
    int whole = feof(file) && !ferror(file);
    fclose(file);
    if (!whole)
        return -1;
    text[length] = '\0';
    if (hierarchy_path(text, which, root, size) != 0) {
        root[0] = '\0';
        return -1;
    }
    size_t root_length = strlen(root);
    const char *init = "/init.scope";
    if (root_length >= strlen(init) && strcmp(root + root_length - strlen(init), init) == 0)
        root[root_length - strlen(init)] = '\0';
    if (strcmp(root, "/") == 0)
        root[0] = '\0';
    return 0;
}

static int ends_with(const char *text, size_t length, const char *tail)
{
    size_t tail_length = strlen(tail);
    return length >= tail_length && strncmp(text + length - tail_length, tail, tail_length) == 0;
}

/* The place `path` names below `root`. */
static struct place place_in(const char *path, const char *root)
{
    struct place place = { .kind = PLACE_OTHER };
    size_t root_length = strlen(root);
    if (root_length > 0) {
        if (strncmp(path, root, root_length) != 0 || (path[root_length] != '/' && path[root_length] != '\0'))
            return place; /* outside the tree systemd counts: no session of this machine's */
        path += root_length;
    }
    for (const char *part = path; *part != '\0';) {
        while (*part == '/')
            part++;
        size_t length = strcspn(part, "/");
        if (length == 0)
            break;
        if (ends_with(part, length, ".slice")) {
            part += length;
            continue;
        }
        /* The first unit below the slices. */
        const char *session = "session-", *manager = "user@";
        if (strncmp(part, session, strlen(session)) == 0 && ends_with(part, length, ".scope")) {
            size_t id_length = length - strlen(session) - strlen(".scope");
            const char *id = part + strlen(session);
            if (id_length == 0 || id_length >= sizeof place.session)
                return place;
            for (size_t i = 0; i < id_length; i++)
                if (!isalnum((unsigned char)id[i]))
                    return place;
            memcpy(place.session, id, id_length);
            place.session[id_length] = '\0';
            place.kind = PLACE_SESSION;
        } else if (strncmp(part, manager, strlen(manager)) == 0 && ends_with(part, length, ".service")) {
            const char *digits = part + strlen(manager);
            size_t digits_length = length - strlen(manager) - strlen(".service");
            if (digits_length == 0 || digits_length > 10)
                return place;
            unsigned long uid = 0;
            for (size_t i = 0; i < digits_length; i++) {
                if (!isdigit((unsigned char)digits[i]))
                    return place;
                uid = uid * 10 + (unsigned long)(digits[i] - '0');
            }
            if (uid >= (unsigned long)(uid_t)-1)
                return place;
            place.manager_uid = (uid_t)uid;
            place.kind = PLACE_USER_MANAGER;
        }
        return place;
    }
    return place;
}

static int same_place(const struct place *a, const struct place *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == PLACE_SESSION)
        return strcmp(a->session, b->session) == 0;
    if (a->kind == PLACE_USER_MANAGER)
        return a->manager_uid == b->manager_uid;
    return 1;
}

struct place place_from_cgroup(const char *text)
{
    struct place unknown = { .kind = PLACE_UNKNOWN };
    struct place found[2];
    int have[2] = { 0, 0 }, lines = 0;
    for (int which = 0; which < 2; which++) {
        char path[PATH_SIZE], root[PATH_SIZE];
        if (hierarchy_path(text, which, path, sizeof path) != 0)
            continue;
        lines++;
        if (strcmp(path, "/") == 0)
            continue; /* the unified root of a hybrid system that tracks nothing there */
        if (tree_root(which, root, sizeof root) != 0)
            return unknown; /* where systemd counts from is not known: nor is the place */
        found[which] = place_in(path, root);
        have[which] = 1;
    }
    if (have[0] && have[1])
        return same_place(&found[0], &found[1]) ? found[1] : unknown;
    if (have[0])
        return found[0];
    if (have[1])
        return found[1];
    /* At the roots: a process outside every unit. Neither line: nothing to go by. */
    return lines > 0 ? (struct place){ .kind = PLACE_OTHER } : unknown;
}
