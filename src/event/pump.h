/* A source of events read in a thread of its own, and its events fed to
 * their consumer, in order, in the caller's thread.
 *
 * Reading a log is two jobs of about the same cost: parsing its lines
 * into events, and the rules' work on each event.  On a machine with two
 * or more CPUs they overlap: the source fills batches of events in one
 * thread while the consumer feeds the previous batch to the rules in the
 * other.  Each event's strings are copied into its batch (the source may
 * reuse its buffers on its next call), so an event the consumer gets is
 * valid until the consumer returns from it, as from the source itself.
 *
 * The source's NEXT must touch nothing the consumer's FEED touches: it
 * runs concurrently with it.  The tables both may build on first use
 * (the syscall table, the xlat name indexes) are safe to share.
 */
#ifndef RC_EVENT_PUMP_H
#define RC_EVENT_PUMP_H

#include <stdbool.h>

#include "event/event.h"

/* One event into ITEM, the source's work item, which begins with its
 * struct rc_event: 1, 0 at the end, -1 on an error (the source keeps what
 * it was). LEAVE: the consumer is keeping up, so the source may leave work
 * in ITEM for FINISH, in the consumer's thread; the pump asks so while its
 * queue is short, which balances the two threads. */
typedef int (*event_next_fn)(void *src, void *item, bool leave);
struct arena;
/* The work the source left in ITEM, done in the consumer's thread, with
 * A for what it allocates (valid until FEED returns). */
typedef void (*event_finish_fn)(void *item, struct arena *a);
typedef void (*event_feed_fn)(void *sink, struct rc_event *e);

struct event_pump {
	event_next_fn next;
	void *src;
	/* The bytes of the source's work item: a struct whose first member
	 * is its event, and the rest what the source leaves for FINISH (the
	 * strace parser's struct strace_work), which must point at nothing
	 * but the event's own strings. 0: the event alone. */
	size_t item_size;
	event_finish_fn finish;	/* or NULL */
	event_feed_fn feed;
	void *sink;
};

/* Feed every event P->next makes to P->feed, in order, each finished
 * first: 0 when NEXT ended, -1 when it failed (the events before the
 * failure were fed). Without a second thread (one CPU, or none can be
 * started), the same in one. */
int event_pump(const struct event_pump *p);

/* Point every string of E (name, paths, host, data, line, argv) and the
 * facts of its fds' decorations at a copy in one allocation from A. */
void event_own_strings(struct rc_event *e, struct arena *a);

#endif
