/* One structured entry to the systemd journal, where journald runs, in
 * its native protocol (a datagram of KEY=VALUE lines on its socket), as
 * systemd-coredump writes one per crash: a fleet's journal shipper then
 * carries watch's fields (ROOTCAUSE_SIGNATURE...) as they are, with no
 * library of systemd's needed.
 *
 * Contract: journal_send never blocks and never fails loudly: without
 * journald (no socket) nothing is sent, and false says so. A value with a
 * newline is sent in the protocol's binary form. */
#ifndef RC_WATCH_JOURNAL_H
#define RC_WATCH_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

/* The socket journald reads. */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

struct journal_field {
	const char *key;	/* upper case, digits and '_' */
	const char *value;	/* NULL: left out */
};

bool journal_send(const struct journal_field *v, size_t n);
/* The same, to the datagram socket at PATH (the tests' stand-in). */
bool journal_send_to(const char *path, const struct journal_field *v, size_t n);

/* STATE ("READY=1") to the service manager that started us, where it
 * asks for it (NOTIFY_SOCKET, a Type=notify unit's): the same datagram
 * protocol. False when not asked, or not sent. */
bool systemd_notify(const char *state);

/* Our standard error is the journal (systemd's JOURNAL_STREAM names its
 * device and inode), so a line written to both would be there twice. */
bool journal_is_stderr(void);

#endif
