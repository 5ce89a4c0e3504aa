/* watch's flight recorder: the recent events of every watched process,
 * kept in a bounded ring per process, so that an incident is diagnosed
 * from what led to it and not only from the failure.
 *
 * Contract:
 * - recorder_add copies each event (event_copy) into its process's ring.
 *   A ring keeps the events of the last WINDOW seconds; older ones age
 *   out. Past PROCESS_BYTES for one process, or TOTAL_BYTES for all, the
 *   oldest are dropped before their time, and counted: the window then
 *   has holes, and recorder_holes says how many for a tree.
 * - A process's last exec (or, for one found running, what /proc said of
 *   it) is kept, besides, past the window: an incident names the program.
 * - The recorder learns which process each thread belongs to, and each
 *   process's parent, from the events (found, clone, exit), and else
 *   from /proc while the thread lives.
 * - A process that has ended is forgotten once its newest event is older
 *   than the window: it may be part of a later incident until then.
 * - recorder_each hands on the events of a set of processes: the tree a
 *   process belongs to (its topmost known ancestor and every process
 *   below it), or a process's own line (it, the processes below it and
 *   its ancestors, not its siblings), up to a point; in the order they
 *   were added, as fresh copies the callee may change (diagnose_event
 *   does), which are gone when it returns.
 * Memory: PROCESS_BYTES and TOTAL_BYTES bound the copies; per process
 * and thread, a few hundred bytes more. */
#ifndef RC_WATCH_RECORDER_H
#define RC_WATCH_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "event/event.h"

struct recorder_opts {
	double window;		/* seconds */
	size_t process_bytes;	/* one process's ring, at most */
	size_t total_bytes;	/* all rings together, at most */
};

struct recorder;

struct recorder *recorder_new(const struct recorder_opts *o);
void recorder_free(struct recorder *r);

/* E, the next event of the capture, kept; NOW: the capture's clock
 * (the event's ts when it has one). Returns the process E belongs to. */
pid_t recorder_add(struct recorder *r, const struct rc_event *e, double now);

/* Drops what is older than the window at NOW, and the processes gone. */
void recorder_age(struct recorder *r, double now);

/* Whether process TGID has been seen (and not forgotten). */
bool recorder_knows(struct recorder *r, pid_t tgid);
/* The process thread TID belongs to, as far as known; TID itself else. */
pid_t recorder_process(struct recorder *r, pid_t tid);
/* The topmost known ancestor of process TGID (itself when none). */
pid_t recorder_root(struct recorder *r, pid_t tgid);
/* Whether process TGID is ANCESTOR or below it, as far as known. */
bool recorder_within(struct recorder *r, pid_t tgid, pid_t ancestor);
/* Process TGID's parent as the recorder knows it; 0 unknown. */
pid_t recorder_parent(struct recorder *r, pid_t tgid);

/* Each live process (not seen to end), for stall checks: FN(USER, TGID). */
void recorder_each_process(struct recorder *r, void (*fn)(void *user, pid_t tgid), void *user);

/* Which processes' events recorder_each hands on. */
struct recorder_pick {
	pid_t tgid;
	bool line;		/* TGID's line; false: its whole tree */
	uint64_t upto;		/* the last event (recorder_seq); 0: all */
};
/* The events PICK says, oldest first, each as a fresh copy; returns how
 * many. */
size_t recorder_each(struct recorder *r, const struct recorder_pick *pick,
		     void (*fn)(void *user, struct rc_event *e), void *user);
/* The number of the event recorder_add added last. */
uint64_t recorder_seq(const struct recorder *r);

/* Events of ROOT's tree dropped from its window before their time. */
uint64_t recorder_holes(struct recorder *r, pid_t root);

struct recorder_stats {
	size_t processes, events, bytes;
	uint64_t dropped;	/* before their time, ever */
};
void recorder_stats(const struct recorder *r, struct recorder_stats *out);

/* A thread's /proc/TID/status (TEXT): its process (Tgid, above 0) and
 * that one's parent (PPid, 0 when it has none). */
bool recorder_parse_status(const char *text, pid_t *tgid, pid_t *ppid);

#endif
