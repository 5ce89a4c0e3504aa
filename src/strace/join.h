/* The first halves of split calls ("read(3, <unfinished ...>") waiting,
 * one per pid, for their "<... read resumed>" half. The text is copied
 * (the input's buffer moves on), each copy capped, and the total too:
 * past PENDING_TOTAL_MAX a new half keeps only PENDING_TEXT_TIGHT bytes.
 * Private to strace/. */
#ifndef RC_STRACE_JOIN_H
#define RC_STRACE_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hmap.h"
#include "util/strbuf.h"

struct pending {
	int pid;
	uint64_t order;		/* arrival: a larger one came later */
	double ts;
	struct strbuf text;	/* the line up to " <unfinished ...>" */
	size_t body;		/* where the call starts in text */
	bool elided;		/* text was cut */
	/* A fork's child is seen: a pid's first event was taken for it
	 * (join_latest_fork). A fork has one child. */
	bool claimed;
	struct pending *next_free;
};

struct arrival {
	int pid;
	uint64_t order;
};

struct join {
	struct imap pending;	/* pid -> struct pending */
	struct pending *free_pending;
	uint64_t pending_order;
	size_t pending_bytes;
	struct arrival *arrival;	/* pending calls in arrival order */
	size_t arrival_head, arrival_len, arrival_cap;
	struct pending **flush;	/* at EOF: the calls never resumed, oldest first */
	size_t flush_n, flush_i;
};

void join_init(struct join *j);
void join_release(struct join *j);

/* The call PID left unfinished, or NULL. */
struct pending *join_get(const struct join *j, int pid);
/* Keep the first LEN bytes of TEXT (the call starts at BODY) as PID's
 * unfinished call; PID must have none. */
struct pending *join_store(struct join *j, int pid, double ts, const char *text, size_t len,
			   size_t body, bool elided);
/* PD was resumed or given up: forget it. */
void join_drop(struct join *j, struct pending *pd);
/* The oldest call still waiting (for eviction), or NULL. */
struct pending *join_oldest(struct join *j);
/* PD's process became PID (execve in a thread: "superseded by execve");
 * PID must have no call waiting. */
void join_move(struct join *j, struct pending *pd, int pid);
/* Whether PD is a fork-family call (clone, clone3, fork, vfork). */
bool join_is_fork(const struct pending *pd);
/* The text of a fork-family call (N bytes at S) makes a thread:
 * CLONE_THREAD among its flags, read from the text since its argument
 * facts may be left for the rules' thread (strace_parser_pump). */
bool join_text_makes_thread(const char *s, size_t n);
/* PD's fork makes a thread. */
bool join_is_thread_fork(const struct pending *pd);
/* The latest fork-family call waiting in a pid other than PID whose child
 * has not been seen (claimed), or NULL; with THREAD (the child is known to
 * be a thread), the latest that makes one, if any does. *ALONE: it is
 * the only fork waiting. */
struct pending *join_latest_fork(const struct join *j, int pid, bool thread, bool *alone);
/* At the end of the input: the calls never resumed, oldest first, one a
 * call (each stays valid until it is dropped); NULL after the last. */
struct pending *join_flush_next(struct join *j);

#endif
