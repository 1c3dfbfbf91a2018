#ifndef CTESTPROCESS_H
#define CTESTPROCESS_H

/// Whether the test process's SIGPIPE watch is in place (installed when the test binary loads):
/// a write to a pipe or socket whose reader has gone then fails with EPIPE and the writer's
/// frames go to stderr after FPB_SIGPIPE_MARKER, where ending the whole process was SIGPIPE's
/// default action.
int fpb_tests_sigpipe_watched(void);

/// The line that starts the report of a SIGPIPE (scripts/swift-test.py looks for it).
#define FPB_SIGPIPE_MARKER "fpbridge-tests: SIGPIPE"

#endif
