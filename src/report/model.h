/* The report model: what the writers print, as plain data. Besides the
 * processes (event/procs.h) and the events kept to draw (event/timeline.h),
 * it has two parts:
 *  - the findings, as the report shows them: each cause with the
 *    consequences it led to. The diagnosis (diagnose/) fills them from the
 *    rules' findings, which carry what it judged them by as well
 *    (rules/finding.h); the writers see only what they print.
 *  - the crash, or a snapshot of a process's stacks. crash/ fills this
 *    part from its crash model (crash_report_fill(), in crash/export.c).
 *    Whatever takes crash knowledge to say (the signal in words, which
 *    frames a recursion folds, which frame runs Python) is worked out by
 *    the filler; what is left to a writer is layout.
 * The writers (report/text.c, json.c, crash.c, html.c, perfetto.c) read
 * only this, never rules/, diagnose/ or crash/.
 *
 * The crash part's strings are borrowed from the crash model that filled
 * it and live as long as it does; its arrays and signal_text are its own,
 * freed by crash_report_release(). The findings own what they hold
 * (report_findings_release). */
#ifndef RC_REPORT_MODEL_H
#define RC_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/stack.h"

enum rc_severity {
	RC_SEV_INFO,
	RC_SEV_WARNING,
	RC_SEV_ERROR,
};

/* "error", "warning", "info". */
const char *severity_name(enum rc_severity s);

#define RC_EVIDENCE_MAX 5
/* Paths a finding says what they are now, at most. */
#define RC_NOW_MAX 3
/* Other processes a finding names that met the same failure, at most. */
#define RC_ALSO_MAX 64
/* Evidence lines longer than this are cut, with "..." appended. */
#define RC_EVIDENCE_LINE_MAX 400

/* The code locations that made the calls a finding sums, most calls
 * first: at most this many. */
#define RC_SITES_MAX 5

/* One of them: a stack (event/stack.h) and how many calls it made. */
struct rc_site {
	uint64_t count;
	const struct rc_stack *stack;
};

/* A finding as the report shows it: a cause, or a consequence of one,
 * with the fields of the JSON contract (docs/report-schema.md). */
struct rc_report_finding {
	const char *rule;		/* rule id, static */
	enum rc_severity severity;	/* as judged */
	char *summary;

	/* Optional contract fields: NULL, 0 or negative mean "absent". */
	int pid;
	/* Other processes that met the same failure (a loop running the
	 * command again), in the order they last met it. */
	int also_pids[RC_ALSO_MAX];
	int nalso;
	int tid;
	char *syscall;
	int err;			/* errno value */
	char *path;
	/* PATH on this machine, when the process saw it in a root of its
	 * own (a chroot, a container); NULL otherwise. */
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
	/* The paths whose owner, mode, size or contents the finding gives as
	 * the machine has them now, read after the trace, not from it. */
	char *now[RC_NOW_MAX];
	int nnow;

	/* Where in the code: the stack of the call it quotes (a reference;
	 * NULL: none), or why there is none (STACK_MISSING; NULL: nothing to
	 * say); for a sum, the sites that made its calls, and how many more
	 * calls came from other sites. */
	const struct rc_stack *stack;
	char *stack_missing;
	struct rc_site sites[RC_SITES_MAX];
	int nsites;
	uint64_t sites_other;
	/* The counts are estimates: the tracer unwound a sample of the calls. */
	bool sites_sampled;
	/* A wait: the thread that holds what it waits for (0 unknown), and
	 * that thread's stack where it is (a reference; NULL unknown). */
	int holder_tid;
	const struct rc_stack *holder_stack;
	/* Or the process that holds it (a file lock, from /proc/locks when
	 * the report was made); its stack, the command's to fill, is its
	 * main thread's where that thread sleeps in a call. */
	int holder_pid;

	/* The program's own output named it ("the program reported it"). */
	bool reported;
	/* Its decisive event: where it happened in the trace (0, and ts < 0,
	 * when unknown), to find its evidence on a timeline. */
	uint64_t seq;
	double ts;
	/* The cause it is a consequence of, an earlier entry of the same
	 * list; NULL for a cause. */
	const struct rc_report_finding *cause;
	/* How many findings are this one's consequences. */
	size_t nconsequences;
};

/* A container (or another cgroup than rootcause's) traced processes ran
 * in, named from its cgroup while they ran (lookup/container.h). */
struct rc_report_container {
	char *name;		/* "podman container 1a2b3c4d5e6f", "cgroup /x" */
	const char *engine;	/* "docker", "podman", "containerd", "cri-o",
				 * "systemd"; NULL none (a cgroup only) */
	char *id;		/* the engine's container id; NULL none */
	char *pod;		/* a Kubernetes pod's uid; NULL none */
	char *unit;		/* a systemd unit; NULL none */
	char *cgroup;		/* its path */
	int *pids;		/* the processes in it, as this machine numbers them */
	size_t npids;
};

/* The container process PID ran in, among the N of V; NULL none. */
const struct rc_report_container *report_container_of(const struct rc_report_container *v, size_t n, int pid);

/* The findings in the order the report lists them: each cause, most
 * important first, followed by its consequences in the order they
 * happened. */
struct rc_report_findings {
	struct rc_report_finding **v;
	size_t count;
};

/* Frees every finding of L and what it holds. */
void report_findings_release(struct rc_report_findings *l);

/* A loaded ELF object of the process, as the unwinder found it; frames
 * point at theirs. */
struct rc_report_module {
	const char *name;		/* path as mapped, never NULL */
	uint64_t start, end;
	const char *build_id;		/* hex, "" when it has none */
	bool has_symbols;		/* a symbol table was found */
	bool has_debuginfo;		/* DWARF (file:line) was found */
};

/* One native frame, innermost first, as gdb would name it. */
struct rc_report_frame {
	uint64_t pc;
	const struct rc_report_module *module;	/* NULL: pc in no module */
	const char *function;		/* demangled; NULL when no symbol covers pc */
	uint64_t offset;		/* from function's start, else from the module's */
	const char *file;		/* whole path; NULL without line info */
	int line;			/* 0 unknown */
	bool inlined;			/* inlined into the next (outer) frame */
	/* A call of the Python evaluator: the Python frames it runs are
	 * printed just above it (text). */
	bool runs_python;
	/* Recursion, folded: when REPEAT > 1, this frame and the PERIOD - 1
	 * after it are one cycle that repeats REPEAT times, so the next frame
	 * to print is REPEAT * PERIOD further on.  1 and 1 otherwise, also
	 * for the frames inside a fold.  (Frames are capped at
	 * RC_CRASH_MAX_FRAMES, far below UINT32_MAX.) */
	uint32_t repeat, period;
};

/* One Python frame, innermost first. */
struct rc_report_pyframe {
	const char *function;		/* qualified name; NULL unknown */
	const char *file;		/* NULL unknown */
	int line;			/* 0 unknown */
	/* The last frame one evaluator call runs: the frames after it belong
	 * to the next frame with runs_python. */
	bool entry;
};

/* One thread: its names, its native and Python stacks. */
struct rc_report_thread {
	int tid;
	const char *name;		/* the kernel's (comm); NULL unknown */
	const char *py_name;		/* threading's name for it; NULL unknown */
	bool crashed;
	struct rc_report_frame *frames;
	size_t nframes;
	bool truncated;			/* the walk stopped early ... */
	const char *unwind_error;	/* ... and why; NULL unknown */
	bool python;			/* a Python thread state names it: py and gil mean something */
	bool gil;			/* it held the GIL */
	struct rc_report_pyframe *py;
	size_t npy;
};

/* A piece of the address space (a core's PT_LOAD segment, with the file
 * mapped there). */
struct rc_report_mapping {
	uint64_t start, end;		/* [start, end) */
	char perms[4];			/* "r-x" */
	const char *path;		/* NULL: anonymous */
	uint64_t offset;		/* in the file */
	int64_t file_size;		/* the file's size now; -1 gone or unknown */
	bool in_core;			/* the core holds its bytes */
};

/* One register of the crashed thread, in the kernel's order. */
struct rc_report_reg {
	const char *name;		/* "rip" */
	uint64_t value;
};

/* The crash (or, with signo 0, a snapshot of a process's stacks: a core
 * made by gcore, `rootcause stack`). */
struct rc_report_crash {
	int signo;			/* 0: no signal */
	const char *signal_name;	/* "SIGSEGV"; NULL for a number without one */
	const char *si_code_name;	/* "SEGV_MAPERR"; NULL none or unknown */
	bool has_fault_addr;		/* the kernel gave a fault address ... */
	uint64_t fault_addr;		/* ... this one */
	/* "SIGSEGV (SEGV_MAPERR at 0x10)": the signal in the words the
	 * findings use; NULL with signo 0. */
	char *signal_text;
	int crashed_tid;		/* 0 unknown */

	int pid;
	const char *exe;		/* the executable's path; NULL unknown */
	const char *const *argv;	/* the command line; NULL unknown */
	int argc;

	struct rc_report_thread *threads;	/* the crashed one first */
	size_t nthreads;
	/* The crashed thread's registers (of thread regs_tid); none when no
	 * thread crashed. */
	struct rc_report_reg *regs;
	size_t nregs;
	int regs_tid;
	struct rc_report_module *modules;
	size_t nmodules;
	struct rc_report_mapping *maps;
	size_t nmaps;
	/* Why part of the picture is missing, one reason a line, each ended
	 * by '\n'; "" when nothing is. */
	const char *problems;
};

#endif
