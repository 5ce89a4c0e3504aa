/* What the files of the process model (procs.h) lend each other, and
 * nobody else: the writer (procs.c) applies an event through the parts
 * each of the others keeps, the fd tables (fdtable.c), the processes
 * (proctree.c), their credentials (creds.c) and the output ring
 * (program-output.c); failures.c only reads.
 */
#ifndef RC_EVENT_PROCS_INTERNAL_H
#define RC_EVENT_PROCS_INTERNAL_H

#include "event/procs.h"

/* Ancestors followed when asking whether a process failed, or descends
 * from another. */
#define MAX_DEPTH 64

/* ---- fdtable.c ---- */

struct rc_fdtable *fdt_new(void);
/* A child's own copy of T (fork without CLONE_FILES); an empty table for
 * NULL. */
struct rc_fdtable *fdt_copy(const struct rc_fdtable *t);
/* Drop a reference to T (NULL: nothing): the last frees it. */
void fdt_unref(struct rc_fdtable *t);
struct rc_fd *fd_dup(const struct rc_fd *f);
/* Sets what fd FD with no entry is: stream 1 or 2, 0 for neither, -1
 * for what it was at the start. */
void stream_mark(struct rc_fdtable *t, int fd, int stream);
/* The inherited stream (1 stdout, 2 stderr) fd FD of P with no entry
 * writes to; 0 when none. */
int inherited_stream(const struct rc_proc *p, int fd);
/* Make F the entry of FD, replacing (and freeing) what was there. */
void fd_store(struct rc_proc *p, int fd, struct rc_fd *f);
/* A new entry of KIND for FD, replacing what was there. */
struct rc_fd *fd_put(struct rc_proc *p, int fd, enum rc_fd_kind kind);
void fd_close(struct rc_proc *p, int fd);
/* Learn an fd the model has not seen opened from what its -y/-yy
 * decoration showed, H (sockets opened before an attach are known only
 * this way); nothing for an fd the model has. */
void learn_fd_shown(struct rc_proc *p, int fd, const struct rc_fdfacts *h);
/* The stream (1 stdout, 2 stderr) a write on fd FD of P goes to, 0 for
 * neither: fds 1 and 2 whatever they were redirected to, and copies of
 * the streams the program started with. *TO_NULL: the fd is /dev/null (a
 * script's "2>/dev/null"), so nobody reads what goes there. */
int write_stream(const struct rc_proc *p, int fd, bool *to_null);

/* ---- proctree.c ---- */

/* PID's record, made (with a table of its own) when the model has none. */
struct rc_proc *proc_get_or_add(struct rc_procs *m, int pid);
/* PARENT's child CHILD: its parentage, and what a fork gives it (the fd
 * table, as shared or copied, the cwd, argv and exe). */
void proc_inherit(struct rc_procs *m, struct rc_proc *child, struct rc_proc *parent, bool thread,
		  bool share_files);
/* Drop PID from the model (an ended process the model no longer needs). */
void proc_forget(struct rc_procs *m, int pid);
/* Remember that PID ended; forget the oldest ended process past the cap. */
void note_ended(struct rc_procs *m, int pid);
/* A process record (an hmap value), and ARGC strings of ARGV, freed. */
void proc_free(void *p);
void argv_free(char **argv, int argc);

/* ---- creds.c ---- */

/* A credentials call that worked (or a get*id answer), E of P: what P's
 * process now runs as. */
void creds_apply(struct rc_procs *m, struct rc_proc *p, const struct rc_event *e);

/* ---- program-output.c ---- */

/* E, a write to STREAM (1 stdout, 2 stderr; DISCARDED: to /dev/null),
 * into the ring, line by line. */
void output_add(struct rc_procs *m, const struct rc_event *e, int stream, bool discarded);
/* The unterminated line of stream I + 1 (0 stdout, 1 stderr) into the
 * ring. */
void output_flush_fd(struct rc_procs *m, int i);
/* Thread TID, taken for a process of its own while its clone had not
 * returned (procs_resolve), wrote lines then: they are its process's,
 * written by the program LEADER runs, not by a program of its own. */
void restamp_thread_output(struct rc_procs *m, int tid, const struct rc_proc *leader);

#endif
