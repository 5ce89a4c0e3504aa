/* A finding: one diagnosed cause, with the fields of the JSON contract
 * (docs/report-schema.md), evidence and advice. */
#ifndef RC_REPORT_FINDING_H
#define RC_REPORT_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rc_severity {
	RC_SEV_INFO,
	RC_SEV_WARNING,
	RC_SEV_ERROR,
};

#define RC_EVIDENCE_MAX 5
/* Evidence lines longer than this are cut, with "..." appended. */
#define RC_EVIDENCE_LINE_MAX 400

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

	/* Ranking inputs, set by the rule. */
	uint64_t seq;			/* the decisive event's position */
	double ts;
	/* Nothing later in the trace recovered from this failure (the file
	 * never appeared, the host was never reached). */
	bool unrecovered;
	/* Words the program's own output would contain if it reported this
	 * failure (a basename, a host); up to 3, matched case-insensitively,
	 * those with echo_whole set only as whole words (a file "arch" is not
	 * named by "Architecture"). */
	char *echo_words[3];
	bool echo_whole[3];
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
	/* Then: the program image of its process that wrote it (procs.h),
	 * whose failure, not a later program's, makes the words an error. */
	unsigned image;
	/* The process that sent the signal a finding is about (crashed): a
	 * supervisor's SIGTERM after its child failed is that failure's
	 * consequence. 0 unknown, or the kernel. */
	int sender_pid;

	/* Ranking outputs, set by rank_findings(). */
	bool echoed;			/* the program's output named it */
	bool near_exit;			/* among the last failures before a failed exit */
	bool failed;			/* its process or an ancestor failed */
	enum rc_severity effective;	/* severity or severity_ok */
	double score;
	/* Its place in the ranking, 0 first; findings_link() keeps it as
	 * the order among causes and among one cause's consequences. */
	size_t rank;

	/* Linking output (rules/causes.c): the cause this finding is a
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
/* A phrase the program's report of the failure would contain ("no
 * space", "resol"), matched anywhere. */
void finding_echo_word(struct rc_finding *f, const char *word);
/* A name it would contain (a file's basename, a host, an address),
 * matched only as a whole word. */
void finding_echo_name(struct rc_finding *f, const char *name);

void finding_free(struct rc_finding *f);
void findings_init(struct rc_findings *list);
void findings_release(struct rc_findings *list);

const char *severity_name(enum rc_severity s);

#endif
