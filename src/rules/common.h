/* What the trace rules do alike: whose process an event belongs to, the
 * families of system calls several rules watch, copies of evidence lines,
 * sizes and peer addresses in words, the bounded keyed aggregates (evict,
 * select, sort) and the findings built from them. Each rule's judgement
 * stays in its own file; only the plumbing that must not drift apart
 * between rules lives here.
 *
 * The small helpers used on the per-event path are inline; the rest
 * (rules/common.c) run at finish time or when an aggregate is full.
 */
#ifndef RC_RULES_COMMON_H
#define RC_RULES_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "event/event.h"
#include "event/procs.h"
#include "event/syscalls.h"
#include "rules/finding.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Port 53 belongs to dns-failure: the connection rules leave it alone. */
#define RULE_DNS_PORT 53

/* A thread that made this many more calls after a failure carried on
 * without what failed: it handled the failure, it did not give up on it. */
#define RULE_KEPT_GOING 1000

/* The process (thread-group leader) PID belongs to; PID itself when the
 * model does not know it. */
static inline int rule_leader(const struct rc_ctx *ctx, int pid)
{
	const struct rc_proc *l = procs_leader(ctx->procs, pid);

	return l ? l->pid : pid;
}

/* The process PID belongs to, for state its threads share. Threads and
 * processes already running when tracing began (strace -p) have no known
 * parent, and the model cannot tell which of them share a process: they
 * form one group, 0, which is right for the usual single attached process. */
static inline int rule_group(const struct rc_ctx *ctx, int pid)
{
	const struct rc_proc *p = procs_leader(ctx->procs, pid);

	if (!p || (!p->has_parent && !p->is_thread))
		return 0;
	return p->pid;
}

/* P's parent, when the trace showed it. */
static inline const struct rc_proc *rule_parent(const struct rc_ctx *ctx, const struct rc_proc *p)
{
	return p && p->has_parent ? procs_get(ctx->procs, p->ppid) : NULL;
}

/* P's failure was dealt with: an ancestor (its parent, or a shell above a
 * subshell that passed the status on) went on to exit 0 (a pipeline's
 * `head`, a supervisor stopping a helper). */
static inline bool rule_handled(const struct rc_ctx *ctx, const struct rc_proc *p)
{
	return p && procs_handled(ctx->procs, p);
}

/* Did thread PID, which had made NSYS calls at the failure, make many more
 * after it (RULE_KEPT_GOING)? */
static inline bool rule_kept_going(const struct rc_ctx *ctx, int pid, uint64_t nsys)
{
	const struct rc_proc *p = procs_get(ctx->procs, pid);

	return p && p->nsyscalls > nsys + RULE_KEPT_GOING;
}

/* The working directory relative paths of E resolved against
 * (procs_cwd). */
static inline const char *rule_cwd(const struct rc_proc *p, const struct rc_event *e)
{
	return procs_cwd(p, e);
}

/* The traced wall time, 0 without timestamps. */
static inline double rule_span(const struct rc_ctx *ctx)
{
	return ctx->has_time && ctx->last_ts > ctx->first_ts ? ctx->last_ts - ctx->first_ts : 0;
}

/* WORD, a name (a file, a host, an address), occurs in TEXT as a whole
 * word, whatever its case: no file-name character is glued to it, nor a
 * '.' before it ("x.conf" does not name "conf"); a '.' after it may end a
 * sentence ("missing foo." names foo, "foo.py" does not). */
bool rule_names_word(const char *text, const char *word);

/* TEXT names F's subject: one of F's echo words (a phrase anywhere, a
 * name as a whole word; with NAMES_ONLY, names only). */
bool rule_text_echoes(const struct rc_finding *f, const char *text, bool names_only);

/* Whether output line O counts as something the program said. What went
 * to /dev/null was meant to be hidden ("enable -f x.so 2>/dev/null ||
 * fallback", "ls x 2>/dev/null; true"), unless the program that wrote it
 * failed and took the whole run with it: a service started with
 * 2>/dev/null still says why it died, and only the trace saw it. A
 * program that went on to exec another did not fail (pyenv's script
 * before the python it runs). */
bool rule_output_counts(const struct rc_procs *m, const struct rc_output *o);

/* Output line O reads as an error report: on stderr, any of the error
 * words ("error", "cannot ", "no such file"...); on stdout, which carries
 * results, only a line that starts like one ("Error: ...") or says
 * " failed". */
bool rule_error_line(const struct rc_output *o);

/* The last line of the program's output (the process model keeps the
 * recent ones) written after SEQ that names WORD, a file name, as a whole
 * word: "re" is not named by "most recent call", nor "time.py" by
 * "time.pyc". Only lines that count (rule_output_counts). NULL when
 * none did. */
const char *rule_output_naming(const struct rc_procs *m, const char *word, uint64_t seq);

/* Key per-process state by a name: "LEADER/NAME" (NAME is LEN bytes) into
 * SB, which is reset; returns SB's contents, SB->len long. */
const char *rule_proc_key(struct strbuf *sb, const struct rc_ctx *ctx, int pid, const char *name,
			  size_t len);

/* open, openat, openat2 (creat is apart: it always creates). */
static inline bool rule_is_open(long nr)
{
	return syscall_is(nr, CL_OPEN) && !syscall_is(nr, CL_CREATES);
}

/* The calls that move a process into a directory: chdir, fchdir, chroot,
 * pivot_root. */
static inline bool rule_is_enter(long nr)
{
	return syscall_is(nr, CL_ENTER);
}

/* A process looking for a directory to be in: the shell's `cd` tried over
 * candidates, a program that tries its configured directory and then a
 * default. What it looks for is a place, not a name, so a later move
 * into any directory by the same process found one, as a later open of
 * the same name does for a file: the failed moves before it were probes.
 * The file rules keep the keys (a basename, a path) of their failed moves
 * here until the process moves somewhere: the last RULE_ENTER_PENDING,
 * older ones forgotten (they then stay failures, the safe side). */
#define RULE_ENTER_PENDING 32

struct rule_enter_pending {
	int pid[RULE_ENTER_PENDING];	/* the process (leader) that failed */
	char *key[RULE_ENTER_PENDING];
	size_t next;
};

/* A failed move by process LEADER, kept under KEY. */
void rule_enter_failed(struct rule_enter_pending *p, int leader, const char *key);
/* LEADER moved into a directory: FOUND(KEY, ARG) for each of its failed
 * moves, which are then forgotten. */
void rule_enter_worked(struct rule_enter_pending *p, int leader, void (*found)(const char *key, void *arg),
		       void *arg);
void rule_enter_release(struct rule_enter_pending *p);

/* The calls that make a new process or thread. */
static inline bool rule_is_fork(long nr)
{
	return syscall_is(nr, CL_FORK);
}

/* poll and select: E->fds lists the fds waited on. */
static inline bool rule_is_poll(long nr)
{
	return syscall_is(nr, CL_POLL);
}

/* epoll waits: E->fds lists the fds that turned ready. */
static inline bool rule_is_epoll(long nr)
{
	return syscall_is(nr, CL_EPOLL);
}

/* Calls that move data through a connected socket: the first one after a
 * non-blocking connect tells how the connect ended. */
static inline bool rule_is_sock_io(long nr)
{
	return syscall_is(nr, CL_SOCK_IO);
}

/* The path of E's fd as the process model knows it (NULL for a socket, a
 * pipe...), or, for an fd the model has not seen opened (strace -p), the
 * path strace -y printed for it. */
static inline const char *rule_fd_path(const struct rc_ctx *ctx, const struct rc_event *e)
{
	const struct rc_fd *f = e->fd >= 0 ? procs_fd(ctx->procs, e->pid, e->fd) : NULL;

	if (f)
		return f->kind == RC_FD_FILE ? f->path : NULL;
	const struct rc_fdfacts *shown = procs_fd_shown(ctx->procs, e, e->fd);
	return shown && shown->kind == RC_FD_FILE ? shown->path : NULL;
}

/* FD of E's process when the model has it as a socket, else NULL. */
static inline const struct rc_fd *rule_socket_fd(const struct rc_ctx *ctx, const struct rc_event *e,
						 int fd)
{
	const struct rc_fd *f = procs_fd(ctx->procs, e->pid, fd);

	return f && f->kind == RC_FD_SOCKET ? f : NULL;
}

/* Any file path known for E's fd: the model's when the model has it as a
 * file, else the one strace -y printed. Unlike rule_fd_path, -y wins over
 * a model that has the fd as something else. */
static inline const char *rule_fd_file(const struct rc_ctx *ctx, const struct rc_event *e)
{
	const struct rc_fd *f = e->fd >= 0 ? procs_fd(ctx->procs, e->pid, e->fd) : NULL;

	if (f && f->kind == RC_FD_FILE)
		return f->path;
	const struct rc_fdfacts *shown = procs_fd_shown(ctx->procs, e, e->fd);
	return shown && shown->kind == RC_FD_FILE ? shown->path : NULL;
}

/* A terminal: a read there waits for a person. */
static inline bool rule_terminal_path(const char *path)
{
	return path && (strncmp(path, "/dev/tty", 8) == 0 || strncmp(path, "/dev/pts/", 9) == 0 ||
			strcmp(path, "/dev/console") == 0);
}

/* The peer of socket FI (fd FD of E) as findings name it
 * ("127.0.0.1:8080", "/run/x.sock"), or NULL: the model's, else the
 * address E carries for its own fd (from its decoration, or the tracer's).
 * The caller frees it. */
char *rule_socket_peer(const struct rc_event *e, int fd, const struct rc_fdinfo *fi);

/* One end of a socket, as rule_addr_format has it, added to SB. */
void rule_add_end(struct strbuf *sb, const struct rc_sockaddr *sa);

/* FI in words, for a summary: "'/etc/x'", "pipe:[123]", "TCP
 * 127.0.0.1:5000->127.0.0.1:8080", "unix socket /run/x.sock", "TCP
 * socket to 10.0.0.2:80", "anon_inode:[eventfd]". SHOWN is what E's own
 * decoration of the fd says (procs_fd_shown; NULL none), PEER the
 * socket's peer (rule_socket_peer; NULL none). */
void rule_fd_words(struct strbuf *sb, const struct rc_fdinfo *fi, const struct rc_fdfacts *shown, const char *peer);

/* A duration in words: "2.0 ms", "1.84 s", "12.5 s". */
void rule_add_seconds(struct strbuf *sb, double s);

/* Sets of int keys (hmap values (void *)1), capped at CAP keys; a key of
 * two ints: a process group and an fd or a port. */
static inline long long rule_pair_key(int group, int n)
{
	return (long long)((unsigned long long)(unsigned)group << 32 | (unsigned)n);
}

static inline void rule_set_add(struct hmap *set, long long key, size_t cap)
{
	if (set->count < cap || hmap_get_int(set, key))
		*hmap_put_int(set, key, NULL) = (void *)1;
}

static inline bool rule_set_has(const struct hmap *set, long long key)
{
	return set->count && hmap_get_int(set, key);
}

/* A copy of E's line to quote later; NULL when it has none. */
static inline char *rule_line(const struct rc_event *e)
{
	event_quoted(e);
	return e->line ? xstrndup(e->line, e->line_len) : NULL;
}

/* The same, cut one byte past the evidence cap: that byte keeps the "..."
 * mark, and a rule keeping many lines does not keep megabytes of them. */
static inline char *rule_line_short(const struct rc_event *e)
{
	event_quoted(e);
	return e->line ? xstrndup(e->line, MIN(e->line_len, (size_t)RC_EVIDENCE_LINE_MAX + 1)) : NULL;
}

/* Quote LINE (NULL: nothing) as evidence of F. */
static inline void rule_evidence(struct rc_finding *f, const char *line)
{
	if (line)
		finding_evidence(f, line, strlen(line));
}

/* A peer as findings name it: "127.0.0.1:8080", "[::1]:443",
 * "/run/x.sock", "@abstract". The caller frees it. */
char *rule_addr_format(int family, const char *host, int port, bool abstract);

/* The first directory on the way to PATH (absolute) that does not exist
 * now, as process PID sees the machine (ctx->lookup), into SB:
 * "/srv/app" for "/srv/app/run/x.sock" when /srv exists and /srv/app
 * does not. False when every directory above PATH exists, PATH is
 * relative, or the first missing one cannot be told (a file stands in
 * the way, a log recorded elsewhere). The finding that says so says it
 * read it now (finding_now). */
bool rule_missing_dir(struct strbuf *sb, const struct rc_ctx *ctx, int pid, const char *path);

/* A peer the connection rules report: TCP/UDP or a unix socket, and not a
 * DNS server. */
static inline bool rule_connect_peer(int family, int port)
{
	if (family != AF_INET && family != AF_INET6 && family != AF_UNIX)
		return false;
	return family == AF_UNIX || port != RULE_DNS_PORT;
}

/* 127.0.0.1 and ::1: no word a program's message would make its own. */
static inline bool rule_loopback(const char *host)
{
	return strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0;
}

/* A finding of RULE whose summary was built in SB (released). */
struct rc_finding *rule_finding(struct rc_findings *out, const char *rule, enum rc_severity severity,
				enum rc_severity severity_ok, struct strbuf *sb);

/* F is about process PID, seen in its thread TID. */
static inline void rule_finding_pid(struct rc_finding *f, int pid, int tid)
{
	f->pid = pid;
	f->tid = tid != pid ? tid : 0;
}

/* The finding that stands for the COUNT records a rule had no room for:
 * SUMMARY has one %llu, for COUNT. */
struct rc_finding *rule_dropped(struct rc_findings *out, const char *rule, enum rc_severity severity,
				enum rc_severity severity_ok, uint64_t count, const char *summary,
				const char *advice) __attribute__((format(printf, 6, 0)));

/* After SHOWN findings (the last ones of OUT) of a rule that lists at most
 * a few: note on the last one, unless it has a message already, that REST
 * more WHAT were not listed. */
void rule_note_rest(struct rc_findings *out, size_t shown, long long rest, const char *what);

/* Whether an aggregate's VALUE is wanted; ARG is the caller's. */
typedef bool rule_keep_fn(const void *value, const void *arg);

/* The values of MAP that KEEP accepts (all of them when KEEP is NULL), in
 * the map's order; *N is set to their number. The caller frees the array. */
void **rule_values(const struct hmap *map, rule_keep_fn *keep, const void *arg, size_t *n);

/* The finish of the rules that report every record of MAP that KEEP
 * accepts (all when KEEP is NULL), in the order they first went wrong:
 * sorted by the uint64_t first seq at SEQ_OFFSET in each, EMIT(value, ARG,
 * OUT) for each; ARG is also KEEP's. */
void rule_report_in_order(const struct hmap *map, rule_keep_fn *keep, size_t seq_offset,
			  void (*emit)(const void *value, const void *arg, struct rc_findings *out),
			  const void *arg, struct rc_findings *out);

/* The per-path performance rules' finish: the values KEEP accepts, sorted
 * with CMP (which compares two elements of a void * array), the first MAX
 * given to REPORT. */
void rule_report_top(const struct hmap *map, rule_keep_fn *keep, int (*cmp)(const void *, const void *),
		     size_t max, void (*report)(const void *value, struct rc_findings *out),
		     struct rc_findings *out);

/* How the file rules rank their candidates before listing the first few:
 * by score, then the latest failure first. Each candidate struct starts
 * with one, and an array of them is sorted with rule_cmp_rank. */
struct rule_rank {
	double score;
	uint64_t seq;
};

int rule_cmp_rank(const void *a, const void *b);

/* The part of a rank score that says how late in the trace SEQ came (up to
 * RC_W_LATENESS): the last failures before an exit are the likeliest
 * causes. */
static inline double rule_recency(const struct rc_ctx *ctx, uint64_t seq)
{
	return RC_W_LATENESS * (double)seq / (double)(ctx->nevents ? ctx->nevents : 1);
}

/* Make room in a full aggregate: remove (and FREE_VALUE) every value of
 * MAP that DROP accepts. */
void rule_evict(struct hmap *map, bool (*drop)(const void *value), void (*free_value)(void *));

/* Keep the heaviest: TOP holds *N entries (at most CAP) of SIZE bytes,
 * heaviest first, each weighing the double at WEIGHT_OFFSET. Returns the
 * slot (its old contents stale) where an entry weighing WEIGHT goes, after
 * equal ones, having released (DROP) the lightest when the list was full;
 * NULL when WEIGHT does not make the list. */
void *rule_top_slot(void *top, int *n, int cap, size_t size, size_t weight_offset, double weight,
		    void (*drop)(void *entry));

/* KEY's value in MAP, an int-keyed aggregate of at most CAP values. When
 * there is none and CREATE is set: a new zeroed value of SIZE bytes, unless
 * the map is full (NULL then); *CREATED (may be NULL) tells whether the
 * value is new. */
void *rule_int_value(struct hmap *map, long long key, bool create, size_t size, size_t cap,
		     bool *created);

/* Time a thread spent in what a rule counts. */
struct rule_thread_time {
	int tid;
	double total;
	uint64_t count;
};

/* Add one call or wait of DUR seconds to TID's entry in MAP (tid ->
 * struct rule_thread_time*); a thread past CAP threads is not counted. */
void rule_thread_time_add(struct hmap *map, int tid, double dur, size_t cap);

#endif
