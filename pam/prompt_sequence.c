/* Finger, then password: the reader waits alone (its timeout), and the password module after
 * this line asks when the finger is refused or the reader stops waiting. For programs whose
 * conversation the module cannot end early (prompt_choice.c). */
#include "touch_or_type.h"

#include <security/pam_ext.h>

#include <syslog.h>

int prompt_sequence(const struct touch_request *request)
{
    if (!request->silent)
        pam_prompt(request->pamh, PAM_TEXT_INFO, NULL, "Touch the fingerprint reader (or wait for the password prompt)");
    for (;;) {
        struct stream_line line;
        int got = stream_next(request->stream, &line, request->deadline);
        if (got != 1) {
            pam_syslog(request->pamh, LOG_ERR, "no finger for %s: fpbridged %s", request->shown_user,
                       got == 0 ? "did not end the scan in time" : "ended the verify without a result");
            return PAM_IGNORE;
        }
        if (tell_line(request, &line, -1))
            return line.kind == LINE_MATCHED ? PAM_SUCCESS : PAM_IGNORE;
    }
}
