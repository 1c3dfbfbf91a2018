/* The mode `password-proved`: the password module before this line succeeded, so fpbridged
 * lifts the user's fingerprint lockout. */
#ifndef PAM_FPBRIDGE_PASSWORD_PROVED_H
#define PAM_FPBRIDGE_PASSWORD_PROVED_H

#include <security/pam_modules.h>

/* Tells fpbridged at `socket_path` that PAM_USER's password was proved in this transaction.
 * Every outcome is logged when it is a failure and none changes the stack's: PAM_IGNORE. */
int password_proved(pam_handle_t *pamh, const char *socket_path);

#endif
