/* POST /v1/password-proved {"user": PAM_USER, "pamService": PAM_SERVICE} (api/fpbridged.openapi.yaml).
 *
 * The user is PAM's item PAM_USER, the one the password module before this line checked, and
 * never the PAM environment or the process's: `pam_exec` hands a hook both, and either may name
 * someone else (a `pam_putenv` by the application, a user's own `~/.pam_environment`), which let
 * one user's password lift another's lockout (issue 39). No environment is read in this module. */
#include "password_proved.h"

#include "json_text.h"
#include "service_request.h"

#include <security/pam_ext.h>
#include <syslog.h>

/* Room for a user name of 256 bytes even if each byte needed \u00XX, and the service's name. */
#define BODY_SIZE 3072

static int build_body(char *body, size_t size, const char *user, const char *service)
{
    size_t used = 0;
    body[0] = '\0';
    if (json_append_raw(body, size, &used, "{\"user\":") != 0 || json_append_string(body, size, &used, user) != 0)
        return -1;
    if (service != NULL && service[0] != '\0'
        && (json_append_raw(body, size, &used, ",\"pamService\":") != 0
            || json_append_string(body, size, &used, service) != 0))
        return -1;
    return json_append_raw(body, size, &used, "}");
}

int password_proved(pam_handle_t *pamh, const char *socket_path)
{
    const void *user_item = NULL;
    if (pam_get_item(pamh, PAM_USER, &user_item) != PAM_SUCCESS || user_item == NULL || *(const char *)user_item == '\0') {
        pam_syslog(pamh, LOG_ERR, "password-proved: no PAM_USER in this transaction: no fingerprint lockout lifted");
        return PAM_IGNORE;
    }
    /* What the password module read, which a finger leaves unset: pam-auth-update puts this line
     * after the whole auth stack ("Additional"), which a finger (pam_fprintd) reaches too, and a
     * finger must not count as the password (iOS's rule of 156 hours without it). */
    const void *typed = NULL;
    if (pam_get_item(pamh, PAM_AUTHTOK, &typed) != PAM_SUCCESS || typed == NULL)
        return PAM_IGNORE;
    const void *service_item = NULL;
    if (pam_get_item(pamh, PAM_SERVICE, &service_item) != PAM_SUCCESS)
        service_item = NULL;

    char body[BODY_SIZE];
    /* The user as the body names it (escaped): a name with a newline cannot forge a log line. */
    char shown[BODY_SIZE];
    size_t shown_used = 0;
    if (json_append_string(shown, sizeof shown, &shown_used, user_item) != 0
        || build_body(body, sizeof body, user_item, service_item) != 0) {
        pam_syslog(pamh, LOG_ERR, "password-proved: the user name is too long (over 256 bytes): no fingerprint lockout lifted");
        return PAM_IGNORE;
    }
    struct service_answer answer;
    char why[512];
    if (service_post(socket_path, "/v1/password-proved", body, &answer, why, sizeof why) != 0) {
        pam_syslog(pamh, LOG_ERR, "password-proved: fingerprint lockout of user %s not lifted: %s", shown, why);
        return PAM_IGNORE;
    }
    if (answer.status != 200)
        pam_syslog(pamh, LOG_ERR, "password-proved: fingerprint lockout of user %s not lifted: fpbridged at %s refused it (HTTP %d): %s",
                   shown, socket_path, answer.status, answer.detail);
    return PAM_IGNORE;
}
