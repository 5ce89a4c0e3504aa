/* A call's stack: where in the program a call was made, as the thread's
 * Python frames (function, file, line) and its native frames (module,
 * function, file:line), innermost first.  Whoever can read it makes one:
 * the tracer's command at a ptrace stop (where/), the log parser from
 * strace -k's lines.  Events carry it (rc_event.stack), the rules keep
 * it on the findings that quote the call, the report prints it.
 *
 * A stack is immutable once made and shared by counting: stack_ref to
 * keep it past an event's dispatch, stack_unref when done; the counts
 * are atomic, as the log pump hands events from its reader thread.  A
 * stack may instead say why there is none (MISSING): it has no frames
 * then, never half of them. */
#ifndef RC_EVENT_STACK_H
#define RC_EVENT_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hmap;

struct rc_stack_pyframe {
	const char *function;	/* qualified name; NULL unknown */
	const char *file;	/* NULL unknown */
	int line;		/* 0 unknown */
};

struct rc_stack_frame {
	uint64_t pc;
	const char *module;	/* the mapped file's path; NULL: in no module */
	const char *function;	/* NULL: no symbol covers pc */
	uint64_t offset;	/* from function's start, else from the module's */
	const char *file;	/* NULL without line info */
	int line;		/* 0 unknown */
	bool inlined;		/* inlined into the next (outer) frame */
};

struct rc_stack {
	unsigned refs;
	int tid;
	/* Why there are no frames ("the thread had exited"); NULL when
	 * there are. */
	const char *missing;
	const struct rc_stack_pyframe *py;
	size_t npy;
	const struct rc_stack_frame *native;
	size_t nnative;
	/* The frames past these were cut (a deep stack). */
	bool truncated;
	/* Made of the site (stack_site_hash), for grouping calls by it. */
	uint64_t site_hash;
	/* What it takes in memory, for whoever caps what it keeps. */
	size_t bytes;
};

/* How a source that never stops a thread walks its Python frames where
 * the call is made (the eBPF capture, in the kernel): the offsets of the
 * one interpreter's structures that lead from _PyRuntime to the
 * thread's innermost frame and on, from the unwinder that read them
 * (crash/python.h). An offset of -1 is a field this version lacks. */
struct rc_py_walk {
	uint64_t runtime;		/* _PyRuntime's address; 0: none */
	int16_t interp_head;		/* _PyRuntime.interpreters.head */
	int16_t threads_head;		/* PyInterpreterState's first thread state */
	int16_t tstate_next;
	int16_t tstate_native_tid;	/* the kernel tid (3.11+) */
	int16_t tstate_thread_id;	/* pthread_self(): the fs base */
	int16_t first_hop;		/* thread state -> the innermost frame, */
	int16_t second_hop;		/* through a _PyCFrame (3.11, 3.12) */
	int16_t frame_code;
	int16_t frame_back;
	int16_t frame_instr;		/* the last or next instruction */
	int16_t frame_owner;		/* whose frame it is (a byte) */
	int16_t frame_entry;		/* the first of its C call's run (a byte, 3.11) */
	int16_t frame_tlbc;		/* its thread-local bytecode's index (int32, 3.14t) */
	int16_t code_name;		/* a code object's name (co_qualname, co_name) and */
	int16_t code_file;		/* file: what tells one code object from the next at an address */
	uint8_t instr_size;		/* 4: an int f_lasti (3.8-3.10), 8: a pointer */
	/* A str object's length, state word and compact ASCII text (-1:
	 * none), and the state's compact and ASCII bits: for a source that
	 * reads code objects' names itself (struct rc_py_given). */
	int16_t str_length, str_state, str_ascii_data;
	uint8_t str_compact_bit, str_ascii_bit;
};

/* What tells a code object from another later at the same address (its
 * name's and file's objects): kept with what names it, compared before
 * that is used again (a module's body is freed once it ran, and its
 * address taken by the next code object). */
static inline uint64_t rc_py_code_mark(uint64_t name, uint64_t file)
{
	return name ^ (file << 3) ^ 1;
}

/* A walk known from a file before any process runs it: the Python
 * executable or libpython that defines _PyRuntime. The kernel places it
 * in each process the moment the file is in its memory (at the exec, at
 * the loader's mapping of the library), so that even a program's first
 * calls have their Python frames; WALK.runtime is then _PyRuntime's
 * distance from BASE. DEV (as stat gives it) and INO name the file. */
enum rc_py_base {
	RC_PY_BASE_CODE,	/* the program's code as exec maps it: its lowest executable segment */
	RC_PY_BASE_FILE,	/* where a mapping of the file from offset 0 begins */
};

struct rc_py_program {
	uint64_t dev, ino;
	enum rc_py_base base;
	struct rc_py_walk walk;
};

/* One Python frame as the source read it: its code object and
 * instruction, for the unwinder to name from the process's memory. */
struct rc_py_raw {
	uint64_t code, instr;
	uint8_t owner, entry;
	int32_t tlbc;			/* a free-threaded 3.14's thread-local bytecode index */
	/* The code object's rc_py_code_mark at the call, when the source
	 * read it (0: not): a code object named under another mark is
	 * another one, which had the same address. */
	uint64_t mark;
};

/* What the source read of the thread's Python frames. */
enum rc_py_read {
	RC_PY_NOT_ASKED,	/* no walk for the process yet (or no Python) */
	RC_PY_READ,		/* PY holds the frames, innermost first */
	RC_PY_NO_THREAD,	/* no thread state is the thread's: it runs no Python */
	RC_PY_FAILED,		/* a read of the walk failed (memory torn or paged out) */
};

/* A thread's registers and the top of its stack as a source that never
 * stops it copied them at a call's exit (the eBPF capture's stack
 * record), for whoever unwinds (capture.h, on_stack): the registers in
 * x86-64 user_regs_struct's order (those not copied 0), and LEN bytes of
 * the stack from sp up. */
#define RC_STACK_COPY_NREGS 27	/* sizeof(struct user_regs_struct) / 8 */

/* A code object's name and file as the source read them at the call
 * (the eBPF capture, where it cannot hold the thread for whoever
 * unwinds to read them): used for a frame the process's memory no
 * longer names (it has exited). FILE is the path's end when FILE_CUT. */
#define RC_PY_GIVEN_NAME 64
#define RC_PY_GIVEN_FILE 192

struct rc_py_given {
	uint64_t code, mark;
	char name[RC_PY_GIVEN_NAME];	/* "": not read */
	char file[RC_PY_GIVEN_FILE];
	bool file_cut;
};

struct rc_stack_copy {
	uint64_t regs[RC_STACK_COPY_NREGS];
	const unsigned char *bytes;
	size_t len;
	enum rc_py_read py_read;
	const struct rc_py_raw *py;
	size_t npy;
	bool py_truncated;		/* the walk stopped at the source's cap */
	/* Copied at a call that worked for where a sum's calls were made
	 * (a read of a file in pieces, a wake of a long-waited lock: calls
	 * whose stacks the source chose, and samples); unwound like a
	 * quoted call's. */
	bool site;
	/* The source's, for a walk it lacks (RC_PY_NOT_ASKED): whoever
	 * unwinds may fill it, and the source walks the process's later
	 * calls with it. */
	struct rc_py_walk *walk;
	/* The source's: whoever unwinds sets it when it named PY's frames
	 * and keeps what names their code objects from now on, some of
	 * which it did not before: the source need not hold a thread for
	 * them again. */
	bool *py_learned;
	uint64_t *py_marks;		/* and each frame's code mark then (rc_py_code_mark) */
	const struct rc_py_given *given;	/* names of some of PY's code objects */
	size_t ngiven;
};

/* A stack being made: frames are added innermost first, then
 * stack_build makes the one block that holds them and their strings. */
struct stack_builder;
struct stack_builder *stack_builder_new(int tid);
void stack_builder_py(struct stack_builder *b, const char *function, const char *file, int line);
void stack_builder_native(struct stack_builder *b, const struct rc_stack_frame *f);
void stack_builder_truncated(struct stack_builder *b);
/* The stack (one reference, the caller's); B is freed. */
const struct rc_stack *stack_build(struct stack_builder *b);
/* A stack that says why there is none (printf-style). */
const struct rc_stack *stack_missing(int tid, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

const struct rc_stack *stack_ref(const struct rc_stack *s);
/* NULL is fine. */
void stack_unref(const struct rc_stack *s);

/* Whether a finding may quote call E, as far as its number and outcome
 * tell (its arguments aside): a failure (not a try again, a signal's
 * EINTR, a futex's time-out: how non-blocking I/O and idle waits go), a
 * wait of RC_STACK_WAIT_S or more, a call still blocked, an open, an
 * exec, a connect, a bind, a lock call (flock, fcntl), a mapping made.
 * The sources whose stacks cost take them for these only (where/ narrows
 * them further with the arguments; the log parser reads strace -k's
 * frames of these), and for one in RC_STACK_SAMPLE_IO of the reads and
 * writes, which small-io's sites are estimated from. */
struct rc_event;
bool stack_may_quote(const struct rc_event *e);
#define RC_STACK_WAIT_S 0.01
#define RC_STACK_SAMPLE_IO 64

/* At most this many frames of each kind are kept. */
#define RC_STACK_MAX_FRAMES 256

/* Stacks kept once: a call made again from the same place gets the stack
 * made the first time, one block however many keep it. At most MAX of
 * them (one per content hash: a stack whose hash another holds is not
 * shared); BYTES counts what the stacks put on it took, shared or not. */
struct stack_shelf {
	struct hmap *by_hash;
	size_t max;
	size_t bytes;
	uint64_t shared;	/* stacks given back as one kept before */
};
void stack_shelf_init(struct stack_shelf *sh, size_t max);
/* S, or an equal stack kept before (S then dropped): one reference for
 * the caller either way. */
const struct rc_stack *stack_shelf_put(struct stack_shelf *sh, const struct rc_stack *s);
void stack_shelf_release(struct stack_shelf *sh);

/* The site: the code location a user edits.  Two calls made from the
 * same Python line through the same callers are one site whatever the
 * native frames under them; without Python frames, the native frames
 * (function and offset, module) are the site. */
bool stack_same_site(const struct rc_stack *a, const struct rc_stack *b);

/* Whether Python frame F, or native frame F, is the program's own code
 * rather than a library's: for Python, a file outside the standard
 * library, site-packages and dist-packages; for native code, a module
 * outside the system's library directories (/lib, /usr/lib...). */
bool stack_py_own(const struct rc_stack_pyframe *f);
bool stack_native_own(const struct rc_stack_frame *f);

#endif
