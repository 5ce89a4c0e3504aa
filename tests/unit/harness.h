/* What tests/unit/harness.c gives every unit test program besides the
 * conditions it sets before main. */
#ifndef RC_TESTS_HARNESS_H
#define RC_TESTS_HARNESS_H

#include <stdbool.h>

/* TOOL is an executable in PATH (/usr/bin:/bin without one). */
bool test_in_path(const char *tool);

/* Whether this process may ptrace a child of its own (a container or
 * Yama may refuse); when not, says why on stdout, for a program that
 * then skips (exit 77). */
bool test_ptrace_permitted(void);

/* Makes sure FD is closed, for a call that must fail with EBADF, and says
 * so on stdout when it was not. The harness closed every inherited fd,
 * but a select on an fd that something opened since would block for ever
 * (that is how test_decode_io hung in CI), so a test that blocks on a
 * closed fd checks it right before. */
void test_fd_closed(int fd);

#endif
