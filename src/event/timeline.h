/* The timeline: a bounded record of the events a report draws on a time
 * axis (report/html.c, report/perfetto.c), kept while the engine feeds
 * them, so that those writers never read the log again.
 *
 * Kept whole, per thread ("marked"): every failed call, every call of
 * RC_TL_WAIT_S or longer (a futex, poll or connect wait, a blocking read,
 * a slow call), every call still blocked when the trace ended, execs,
 * forks, signals and exits. Kept as well ("quoted"): the other calls a
 * rule copied the line of, which may become a finding's evidence.
 *
 * Caps: for the first RC_TL_THREADS threads (later threads' events are
 * only counted), per thread the first marked events, up to RC_TL_HEAD of
 * them while all threads together keep fewer than RC_TL_HEADS so, and the
 * last RC_TL_TAIL after those; the first RC_TL_QHEAD and the last
 * RC_TL_QTAIL quoted ones. Every call not kept, the dropped ones included,
 * is counted per thread, per call and per time bucket (RC_TL_BUCKETS over
 * the trace, made wider as it grows): the summary the writers draw, and
 * say they drew. At most RC_TL_HEADS + RC_TL_THREADS * (TAIL + QHEAD +
 * QTAIL), about 79,000 events, of RC_TL_LINE_MAX bytes of text each, are
 * kept, whatever the trace's length: a page of about 20 MB at most.
 */
#ifndef RC_EVENT_TIMELINE_H
#define RC_EVENT_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/event.h"
#include "util/hmap.h"

#define RC_TL_THREADS 128
#define RC_TL_HEAD 4096
#define RC_TL_HEADS 30000
#define RC_TL_TAIL 256
#define RC_TL_QHEAD 64
#define RC_TL_QTAIL 64
#define RC_TL_BUCKETS 64
/* A call this long is a wait worth a bar: lock-wait's shortest wait. */
#define RC_TL_WAIT_S 0.01
/* The line kept to show (hover, args), cut with "...". */
#define RC_TL_LINE_MAX 200
/* The line key covers what a finding's evidence keeps of a line
 * (RC_EVIDENCE_LINE_MAX, report/model.h; the writers check they agree). */
#define RC_TL_KEY_MAX 400

enum {
	RC_TL_FAILED = 1u << 0,		/* an errno, not an interruption */
	RC_TL_WAIT = 1u << 1,		/* RC_TL_WAIT_S or longer */
	RC_TL_BLOCKED = 1u << 2,	/* still inside when the trace ended */
	RC_TL_EXEC = 1u << 3,		/* a successful execve */
	RC_TL_FORK = 1u << 4,		/* a fork-family call that made a process or thread */
	RC_TL_QUOTED = 1u << 5,		/* a rule copied its line */
	RC_TL_INTERRUPTED = 1u << 6,	/* ERESTART*: a signal cut it short */
};

struct rc_tl_event {
	uint64_t seq;
	int tid;
	double ts;		/* seconds, as the event had it; < 0 unknown */
	double dur;		/* < 0 unknown */
	enum rc_event_kind kind;
	unsigned flags;
	long nr;		/* -1 unknown */
	const char *name;	/* the call's name (static, or in text) */
	bool ret_known;
	long long ret;
	int err;
	int fd;			/* -1 none */
	int signo;		/* signals, and the exit's signal */
	bool exited;		/* exits: exit_code valid */
	int exit_code;
	int child;		/* forks: the new pid */
	uint64_t key;		/* timeline_line_key of its line; 0 none */
	const char *line;	/* cut at RC_TL_LINE_MAX; NULL none */
	const char *path;	/* as resolved; NULL none */
	char *text;		/* what line, path and name point into */
	size_t text_alloc;	/* its size: a ring's slot keeps it for the next event */
};

/* A list of one kind of kept events: the first ones in HEAD (NHEAD of
 * them, room for ALLOC_HEAD, at most CAP_HEAD), then the last CAP_TAIL in
 * the ring TAIL (TAIL_N pushed in all, the oldest at TAIL_N % CAP_TAIL
 * once it is full). */
struct rc_tl_list {
	struct rc_tl_event *head, *tail;
	size_t nhead, alloc_head, tail_n;
	size_t cap_head, cap_tail;
	uint64_t dropped;	/* pushed out of the ring, or not kept */
};

struct rc_tl_thread {
	int tid;
	int leader;		/* its process; itself until the model says */
	struct rc_tl_list marked, quoted;
	uint64_t calls;		/* every call it made (sums: the calls summed) */
	uint64_t counted;	/* of them, only counted */
	/* Call number (-1 unknown) -> uint32_t[RC_TL_BUCKETS] counts. */
	struct hmap counts;
};

struct rc_timeline {
	struct rc_tl_thread **threads;	/* in the order they first showed */
	size_t nthreads;
	struct hmap by_tid;		/* tid -> struct rc_tl_thread* */
	struct rc_tl_thread *cached;	/* the last one looked up */
	/* The calls of threads past RC_TL_THREADS, counted here. */
	struct rc_tl_thread others;
	uint64_t other_threads;
	size_t heads;			/* marked events kept in heads, of RC_TL_HEADS */
	/* The time axis: seconds when the events have timestamps, else the
	 * event's position (a log without -t/-tt/-ttt). */
	bool timed;
	bool started;
	double origin;			/* the first event's time */
	double bucket;			/* a bucket's width, in the axis's units */
	double first, last;		/* the axis's extent: starts and ends */
};

void timeline_init(struct rc_timeline *tl);
void timeline_release(struct rc_timeline *tl);
/* Record E (after the engine has dispatched it and applied it to the
 * model): QUOTED, a rule copied its line; LEADER, its process's leader
 * as the model knows it (0 unknown). */
void timeline_add(struct rc_timeline *tl, const struct rc_event *e, bool quoted, int leader);

/* A line's key: a hash of it as a finding's evidence keeps it (up to a
 * newline, without trailing blanks, at most RC_TL_KEY_MAX bytes). 0 is
 * never returned. */
uint64_t timeline_line_key(const char *line, size_t n);
/* How timeline_find picks among the kept events whose line has a key. */
enum rc_tl_pick {
	RC_TL_NEAREST,		/* the one closest to position AT */
	RC_TL_FIRST_AFTER,	/* the first after position AT */
};
/* The kept event whose line has KEY, as PICK says, other than the NSKIP
 * in SKIP (a line quoted twice is two events); NULL when none is. */
const struct rc_tl_event *timeline_find(const struct rc_timeline *tl, uint64_t key, enum rc_tl_pick pick,
					uint64_t at, const struct rc_tl_event *const *skip, size_t nskip);

/* The thread TID's record (the shared one past RC_TL_THREADS), or NULL. */
const struct rc_tl_thread *timeline_thread(const struct rc_timeline *tl, int tid);

/* The I-th of LIST's kept events, oldest first (I < timeline_list_len). */
size_t timeline_list_len(const struct rc_tl_list *list);
const struct rc_tl_event *timeline_list_at(const struct rc_tl_list *list, size_t i);
/* An event's place on the axis: its time, or its position. */
static inline double timeline_x(const struct rc_timeline *tl, const struct rc_tl_event *ev)
{
	return tl->timed ? ev->ts : (double)ev->seq;
}
/* The event's end on the axis; an unknown duration ends where it starts. */
static inline double timeline_end(const struct rc_timeline *tl, const struct rc_tl_event *ev)
{
	return tl->timed && ev->dur > 0 ? ev->ts + ev->dur : timeline_x(tl, ev);
}

#endif
