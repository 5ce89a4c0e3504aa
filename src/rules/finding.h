/* A finding as a rule makes it: what the report will print (the fields
 * of the JSON contract, docs/report-schema.md: summary, evidence,
 * advice...) and what the diagnosis judges it by (when it happened,
 * whether anything recovered from it, the words the program would use if
 * it reported it). The trace rules and the crash rules make them; the
 * diagnosis (diagnose/) ranks them, links each consequence to its cause,
 * and hands the report only what it prints (report/model.h).
 */
#ifndef RC_RULES_FINDING_H
#define RC_RULES_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/event.h"
#include "report/model.h"
#include "util/strbuf.h"
#include "util/util.h"

/* What counts how much toward a finding's rank (diagnose/rank.c scores
 * every finding with them). A cause the program named outranks
 * everything; an unrecovered failure near the failed exit outranks the
 * program's own words (error-message), which explain less than the call
 * that failed and only lead when nothing else does; outcomes come last.
 * The rules that report only their best few candidates score those with
 * the same weights, so that what they keep is what the ranking would put
 * first. */
#define RC_W_ECHOED 400		/* the program's output named it */
#define RC_W_NEAR_EXIT 200	/* among the last failures before a failed exit */
#define RC_W_UNRECOVERED 100	/* nothing later recovered from it */
#define RC_W_OUTPUT 250		/* the program's own words, when it failed */
#define RC_W_OUTCOME (-60)	/* an outcome that is also a cause (a fatal signal) */
#define RC_W_SYMPTOM (-500)	/* an outcome (an exit status) */
/* A tie-break within a class: later failures are closer to the exit, up
 * to this much for the last event of the trace. */
#define RC_W_LATENESS 50.0
/* What the rules' own candidates weigh besides: its process failed; it
 * was cut short in the program's words (strace's -s) yet named there;
 * the program carried on long after it (RULE_KEPT_GOING calls), or it
 * was one try of a search that went on; a process that exited 127, the
 * shell's "command not found". */
#define RC_W_FAILED 300
#define RC_W_CUT_WORDS 300
#define RC_W_WENT_ON (-150)
#define RC_W_EXIT_127 500

/* Processes that met one failure, each with the seq of its latest
 * meeting: the first RC_ALSO_MAX processes (occurrences_add), as
 * nonzero-exit reports the first exits of a long loop. */
struct rc_occurrence {
	int pid;
	uint64_t seq;
};
struct rc_occurrences {
	struct rc_occurrence v[RC_ALSO_MAX];
	int n;
};

/* PID met it at SEQ: a process already kept keeps its latest SEQ; past
 * RC_ALSO_MAX processes, a new one is not kept. */
void occurrences_add(struct rc_occurrences *o, int pid, uint64_t seq);

struct rc_finding {
	const char *rule;		/* rule id, static */
	/* The severity when the traced program failed (a non-zero exit or a
	 * fatal signal in this process or an ancestor) or echoed the finding
	 * on its output; severity_ok otherwise. The ranking picks one. */
	enum rc_severity severity;
	enum rc_severity severity_ok;
	char *summary;

	/* Optional contract fields: NULL, 0 or negative mean "absent". */
	int pid;
	int tid;
	char *syscall;
	int err;			/* errno value */
	char *path;
	/* PATH's place on this machine, for a process in a root of its own
	 * (a chroot, a container): set by the diagnosis, not by rules; NULL
	 * when the process sees this machine's root, or it is unknown. */
	char *host_path;
	char *address;			/* "127.0.0.1:443", "[::1]:443", "/run/x.sock" */
	char *host;
	int signo;
	char *message;
	long long count;		/* -1 absent */
	double duration_s;		/* < 0 absent */
	long long bytes;		/* -1 absent */
	char *evidence[RC_EVIDENCE_MAX];
	int nevidence;
	char *advice;
	/* The paths it says what they are now (finding_now). */
	char *now[RC_NOW_MAX];
	int nnow;

	/* Where in the code (report/model.h): the quoted call's stack, a
	 * reference (NULL: the diagnosis gives the one its event had), or
	 * the sites of a sum (rules/sites.h). */
	const struct rc_stack *stack;
	char *stack_missing;
	struct rc_site sites[RC_SITES_MAX];
	int nsites;
	uint64_t sites_other;
	bool sites_sampled;		/* the sites' counts are estimates from a sample */
	/* A wait's holder: its thread, and its stack (a reference); or the
	 * process that holds it (a file lock), as /proc said now. */
	int holder_tid;
	const struct rc_stack *holder_stack;
	int holder_pid;

	/* Ranking inputs, set by the rule. */
	uint64_t seq;			/* the decisive event's position */
	/* The event whose stack says where in the code, when it is not
	 * SEQ's (a connect that a later close or poll timed out); 0: SEQ. */
	uint64_t stack_seq;
	double ts;
	/* Nothing later in the trace recovered from this failure (the file
	 * never appeared, the host was never reached). */
	bool unrecovered;
	/* Words the program's own output would contain if it reported this
	 * failure (a basename, a host); up to 4, matched case-insensitively,
	 * those with echo_whole set only as whole words (a file "arch" is not
	 * named by "Architecture"). */
	char *echo_words[4];
	bool echo_whole[4];
	/* An outcome (an exit status) rather than a cause: ranked after the
	 * causes of its own severity, and linked under one (causes.c). */
	bool symptom;
	/* An outcome that is also a cause (a fatal signal): ranked after the
	 * more specific findings about the same failure (bad-file-mapping),
	 * and linked under one when one explains it. */
	bool outcome;
	/* A rule that reads the program's output itself (error-message). */
	bool is_output;
	/* The process was stuck in the call this finding is about when a
	 * signal cut it short (a lock wait a time-out interrupted): a signal
	 * another process sent it then is its consequence. */
	bool stuck;
	/* A fatal signal its sender sent after waiting for it to end, or
	 * when its timer went off: a time-out, so the victim's slowness is
	 * the failure, not what its sender did after. */
	bool timed_out;
	/* Then: the program image of its process that wrote it (procs.h),
	 * whose failure, not a later program's, makes the words an error. */
	unsigned image;
	/* The same failure met in other processes too (a shell's loop that
	 * runs one command again, a worker restarted): each one's pid and
	 * its latest such failure's seq, the first RC_ALSO_MAX processes
	 * (finding_also). The finding is about each of them: it failed when
	 * any of them failed (diagnose/rank.c), and each one's exit may
	 * follow from it (causes.c). PID and SEQ stay the decisive one's. */
	struct rc_occurrences also;
	/* The process that sent the signal a finding is about (crashed): a
	 * supervisor's SIGTERM after its child failed is that failure's
	 * consequence. 0 unknown, or the kernel. */
	int sender_pid;

	/* The judgement, set by the diagnosis (diagnose/rank.c), except
	 * that a crash rule's finding is judged already (crash_finding). */
	bool echoed;			/* the program's output named it */
	bool near_exit;			/* among the last failures before a failed exit */
	bool failed;			/* its process or an ancestor failed */
	enum rc_severity effective;	/* severity or severity_ok */
	double score;
	/* Its place in the ranking, 0 first; findings_link() keeps it as
	 * the order among causes and among one cause's consequences. */
	size_t rank;

	/* Linking (diagnose/causes.c): the cause this finding is a
	 * consequence of, itself a cause; NULL for a cause. */
	struct rc_finding *cause;
	/* How many findings are this one's consequences. */
	size_t nconsequences;
};

struct rc_findings {
	struct rc_finding **v;
	size_t count;
	size_t alloc;
};

/* A new finding of RULE, appended to LIST and returned for filling in.
 * SUMMARY is printf-style. */
struct rc_finding *finding_add(struct rc_findings *list, const char *rule,
			       enum rc_severity severity, enum rc_severity severity_ok,
			       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void finding_set(char **field, const char *value);
void finding_setf(char **field, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add one evidence line (N bytes; newlines cut it); ignored past the cap. */
void finding_evidence(struct rc_finding *f, const char *line, size_t n);
/* F says what PATH is now (its owner and mode, its size, its first
 * bytes, that it is not there), as a live look-up found it
 * (lookup/lookup.h), not as the trace showed it: the report says so.
 * Each path once; past RC_NOW_MAX, ignored. */
void finding_now(struct rc_finding *f, const char *path);
/* A phrase the program's report of the failure would contain ("no
 * space", "resol"), matched anywhere. */
void finding_echo_word(struct rc_finding *f, const char *word);
/* A name it would contain (a file's basename, a host, an address),
 * matched only as a whole word. */
void finding_echo_name(struct rc_finding *f, const char *name);
/* F's failure was met in the processes of MET too (rc_finding's also):
 * each but OWN, F's own process as MET names it (a rule that keeps
 * leaders gives F's leader). */
static inline void finding_also(struct rc_finding *f, const struct rc_occurrences *met, int own)
{
	for (int i = 0; i < met->n; i++)
		if (met->v[i].pid > 0 && met->v[i].pid != own)
			occurrences_add(&f->also, met->v[i].pid, met->v[i].seq);
}

void finding_free(struct rc_finding *f);
void findings_init(struct rc_findings *list);
void findings_release(struct rc_findings *list);
/* Appends F, made elsewhere, to LIST, which then owns it. */
void findings_push(struct rc_findings *list, struct rc_finding *f);

/* Helpers for the rules that make findings. */

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

#endif
