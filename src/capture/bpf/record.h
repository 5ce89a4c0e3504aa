/* What the in-kernel capture (capture.bpf.c) hands to its loader
 * (bpf.c) through the ring buffer: plain fixed-width data, the same
 * layout on both sides. Included after vmlinux.h in the BPF program and
 * after <linux/types.h> in the loader, which both define __u64 and kin.
 *
 * A call is one record at its exit: its number, the six argument
 * registers saved at entry, the return value, both times, and what the
 * loader's plan for its number says to keep of its memory (paths, socket
 * addresses, the data written, a timeout), read at exit, as a string not
 * yet paged in cannot be read at entry (REFERENCE.md, "In-kernel
 * capture"). A thread's end is one record of its own.
 */
#ifndef RC_CAPTURE_BPF_RECORD_H
#define RC_CAPTURE_BPF_RECORD_H

/* What a call's record carries of its memory, per argument, as the
 * loader plans it per call number from the table's roles (the `plan`
 * map): at most RCB_PLAN items, read at exit. */
#define RCB_PLAN 3
/* Calls the plan covers: numbers at or above it read no memory. */
#define RCB_NR_MAX 512
/* The most a record holds (a per-CPU scratch buffer is built, then
 * copied to the ring buffer at its true size). */
#define RCB_REC_MAX 8192
/* A path: strace prints paths whole, up to PATH_MAX (a record has room
 * for one such; a second is cut at the record's end). */
#define RCB_STR_MAX 4096
/* A watched cgroup's path from the root, the longest found again when it
 * is made anew (capture.bpf.c's follow_cgroup_name). */
#define RCB_CGROUP_PATH_MAX 256
/* A socket address (sockaddr_storage is 128). */
#define RCB_ADDR_MAX 128
/* The data a write keeps: all of it up to twice this, else this much
 * of its head and of its tail (RC_EVENT_DATA_HEAD). */
#define RCB_DATA_END 2048
/* A timeout read at entry (a timespec or timeval: 16 bytes). */
#define RCB_TIMEOUT 16
/* The argv kept of an exec (strace's -s 256 shows about this much). */
#define RCB_ARGV_MAX 1024
/* A struct or array a decoder prints (a stat buffer, poll's fds). */
#define RCB_BYTES_MAX 2048

enum rcb_plan_kind {
	RCB_P_NONE,
	RCB_P_STR,		/* a NUL-terminated string */
	RCB_P_ADDR,		/* a sockaddr, its length the next argument */
	RCB_P_ADDR_OUT,		/* a sockaddr returned, its length at the next argument */
	RCB_P_DATA_OUT,		/* bytes given, their count argument LEN_ARG */
	RCB_P_DATA_IN,		/* bytes returned, as many as the call returned */
	RCB_P_TIMEOUT,		/* 16 bytes, read at entry (select rewrites its timeval) */
	RCB_P_EXEC,		/* an exec's program: after a success, the kernel's exec
				 * event gives its file name (the old memory is gone);
				 * after a failure, the path argument. Its argv (argument
				 * LEN_ARG) is read at entry, as the caller gave it; where
				 * that fails, after a success, from the new program's
				 * memory (where a script's interpreter is first) */
	RCB_P_BYTES,		/* a struct or an array, read at exit: SIZE bytes, times
				 * the count the flags name */
	RCB_P_IOV,		/* an iovec array, its count argument LEN_ARG, and the
				 * buffers it points to (RCB_I_MEM items) */
	RCB_P_MSGHDR,		/* a struct msghdr, its address and its iovecs */
	RCB_P_MMSGHDR,		/* a struct mmsghdr array, its count argument LEN_ARG,
				 * and each one's address and iovecs */
};

/* How much of a vector the kernel half follows. */
#define RCB_IOV_MAX 16		/* iovecs of one vector */
#define RCB_MSG_MAX 4		/* messages of one mmsghdr array */

/* RCB_P_BYTES's flags. */
enum rcb_plan_flags {
	RCB_PF_OK = 1,		/* only when the call worked (what it returned) */
	RCB_PF_COUNT_ARG = 2,	/* SIZE times argument LEN_ARG (poll's nfds) */
	RCB_PF_COUNT_RET = 4,	/* SIZE times the return value (epoll_wait's) */
	RCB_PF_COUNT_PTR = 8,	/* the u32 argument LEN_ARG points to (getsockopt's optlen) */
};

struct rcb_plan_item {
	__u8 kind;		/* enum rcb_plan_kind */
	__u8 arg;
	__u8 len_arg;		/* RCB_P_DATA_OUT's count, RCB_P_BYTES's */
	__u8 flags;		/* enum rcb_plan_flags */
	__u16 size;		/* RCB_P_BYTES's */
	__u16 max;		/* RCB_P_BYTES's most; 0: RCB_BYTES_MAX */
};

struct rcb_plan {
	struct rcb_plan_item item[RCB_PLAN];	/* the first RCB_P_NONE ends them */
	__u32 flags;		/* enum rcb_call_kind */
	/* Diagnosis mode (summed in the kernel, RCB_SUM): */
	__u8 sum;		/* enum rcb_sum_dir: a call moving the bytes it
				 * returns on fd argument SUM_FD; 0: none */
	__u8 sum_fd;
	__u8 sum_len;		/* the argument with the size asked for; 0xff:
				 * the return (a vector's) */
	__u8 closes;		/* 1 + the argument whose fd the call closes;
				 * RCB_CLOSES_ALL: maybe any (exec, close_range);
				 * 0: none */
};

#define RCB_CLOSES_ALL 0xff

enum rcb_sum_dir {
	RCB_SUM_READ = 1,
	RCB_SUM_WRITE,
};

enum rcb_call_kind {
	/* Makes a thread or process, whose first return (0, from a call
	 * whose entry it never made) is no call of its own. */
	RCB_PLAN_FORK = 1,
	/* Recorded, when the loader chose the calls (filter_calls). */
	RCB_PLAN_WANTED = 2,
	/* Never returns (exit, exit_group): written at the thread's end. */
	RCB_PLAN_NORETURN = 4,
	/* watch's quiet mode: counted, not written, when it ran through (or
	 * was told to try again, or was interrupted) on no standard fd: the
	 * I/O, polls, futex calls, accepts and closes a busy server makes
	 * for every request. */
	RCB_PLAN_QUIET = 8,
	/* watch's quiet mode, for a call on a path (an open, a stat, an
	 * access, a readlink): of the thread's calls of one kind on one
	 * path with one outcome (worked, or failed with one error), the
	 * first RCB_REPEAT_SHOWN are written, and then one in
	 * RCB_REPEAT_EVERY; the rest are counted as quiet (a static file
	 * server opens and stats the file it serves for every request; a
	 * missing one fails every time). A file so opened is quiet too:
	 * its reads and writes are counted, not written or summed (its
	 * close is quiet already). */
	RCB_PLAN_REPEAT = 16,
	RCB_PLAN_OPENS = 32,	/* returns a new fd for the path (CL_OPEN) */
};

/* RCB_PLAN_REPEAT's memory, in the thread's call storage: a table of
 * RCB_REPEAT_SLOTS paths by hash (another path at its slot takes it,
 * and counts again from 1), and which of its first RCB_QUIET_FDS fds a
 * quiet open returned. Forgotten at an exec. */
#define RCB_REPEAT_SHOWN 16
#define RCB_REPEAT_EVERY (255 - RCB_REPEAT_SHOWN)
_Static_assert(RCB_REPEAT_SHOWN + RCB_REPEAT_EVERY <= 255, "a thread's repeat counts are bytes");
#define RCB_REPEAT_SLOTS 64
#define RCB_QUIET_FDS 1024
/* The most of a path hashed: two paths alike that far are one. */
#define RCB_REPEAT_PATH 256

/* A quiet call that waited this long is written all the same: a wait
 * worth a bar (RC_TL_WAIT_S), lock-wait's shortest. */
#define RCB_QUIET_WAIT_NS 10000000ULL

/* Diagnosis mode reads a call's arguments from its exit's registers,
 * which a successful exec has cleared: its record gives these for its
 * path and argv, addresses in the kernel's half, which no user memory
 * has, where the items are (the exec event's file name and argv). */
#define RCB_EXEC_PATH_AT 0xffff900000000000ULL
#define RCB_EXEC_ARGV_AT 0xffffa00000000000ULL

enum rcb_kind {
	RCB_CALL = 1,
	RCB_EXIT,		/* a thread ended */
	RCB_SIGNAL,		/* a signal delivered to a thread */
	RCB_FORK,		/* a thread or process made by a followed one */
	RCB_SUM,		/* like calls summed (diagnosis mode) */
	RCB_STACK,		/* where in the code the thread's next call record was made */
};

/* The loss counters, at the start of each CPU's scratch value. */
enum rcb_counter {
	RCB_LOST_RESERVE,	/* the ring buffer was full: a record dropped */
	RCB_LOST_ENTRY,		/* an exit without its saved entry (the entry map was full) */
	RCB_LOST_FOLLOW,	/* a child not followed (the followed map was full) */
	/* A call's stack not copied: a quarter of the ring buffer waited to
	 * be read (struct rcb_stack). No call is lost for it. */
	RCB_SKIPPED_STACK,
	/* A thread held until the reader made room (the ring buffer seven
	 * eighths full): the program waited, nothing was lost. */
	RCB_HELD_FOR_ROOM,
	/* A quiet call counted, not written (RCB_PLAN_QUIET). */
	RCB_QUIET,
	/* Not a loss: a followed call seen at its exit (watch's call rate,
	 * --max-call-rate). */
	RCB_CALLS,
	RCB_NCOUNTERS
};

struct rcb_header {
	__u32 kind;		/* enum rcb_kind */
	__u32 size;		/* the record's bytes, items included */
	__u32 tgid, tid;	/* the kernel's ids (the init namespace's) */
	/* The same in the loader's pid namespace (what its user sees);
	 * 0 when the thread is not in it. */
	__u32 ns_tgid, ns_tid;
};

/* A call: this, then NITEMS items, each a struct rcb_item and its LEN
 * bytes, padded to 8. */
struct rcb_call {
	struct rcb_header h;
	__s64 nr;
	__u64 args[6];
	__s64 ret;
	__u64 enter_ns, exit_ns;	/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	__u32 nitems;
	__u32 flags;		/* enum rcb_call_flags */
};

enum rcb_call_flags {
	/* The thread ended inside the call (exit_group, a fatal signal
	 * while blocked): RET means nothing, and no items follow. */
	RCB_CALL_UNRETURNED = 1,
	/* No entry was seen: a call a seccomp filter refused before the
	 * entry hook runs, or one in progress when the process was
	 * followed. The arguments are the exit's saved registers, and
	 * ENTER_NS is EXIT_NS. */
	RCB_CALL_NO_ENTRY = 2,
};

enum rcb_item_kind {
	RCB_I_STR = 1,		/* LEN bytes, the NUL included */
	RCB_I_BYTES,		/* LEN bytes (at most RCB_BYTES_MAX) */
	RCB_I_HEAD,		/* the first LEN of TOTAL bytes */
	RCB_I_TAIL,		/* the last LEN of TOTAL bytes */
	RCB_I_ARGV,		/* the new program's arguments, each ending in a NUL;
				 * TOTAL: their size in all (more than LEN: cut) */
	RCB_I_MEM,		/* LEN bytes at the address TOTAL (at most
				 * RCB_BYTES_MAX): what a vector points to */
	RCB_I_LIVE,		/* a struct rcb_live (a call that failed with EACCES,
				 * EPERM or ENOSYS) */
};

/* The groups kept of a thread's credentials (event.h's RC_EVENT_MAX_IDS). */
#define RCB_GROUPS_MAX 32

/* What the thread was when its call failed with EACCES, EPERM or
 * ENOSYS, read in the kernel at its exit: the ids its file access was
 * checked against, and its seccomp filters (the reader may come too
 * late for /proc). */
struct rcb_live {
	__u32 fsuid, fsgid;
	__s32 ngroups;		/* more than RCB_GROUPS_MAX: only those kept */
	__s32 seccomp_mode;
	__s32 seccomp_filters;
	__u32 has_rlim_hard;	/* RLIM_HARD was read: a refused setrlimit or
				 * prlimit64 of the thread's own limits */
	__u64 cap_effective;
	__u64 rlim_hard;	/* the hard limit of the call's resource */
	__u32 groups[RCB_GROUPS_MAX];
};

struct rcb_item {
	__u8 arg;
	__u8 kind;		/* enum rcb_item_kind */
	__u8 fault;		/* the memory could not be read: LEN is 0 */
	__u8 pad;
	__u32 len;
	__u64 total;		/* the length the call gave (a write's count) */
};

struct rcb_signal {
	struct rcb_header h;
	__u64 ns;
	__s32 signo, code;	/* the siginfo's */
	__u64 addr;		/* si_addr */
	__s32 pid;		/* si_pid (the sender's, in its namespace) */
	__u32 uid;		/* si_uid */
	/* SIGCHLD's (a CLD_* code): the child's status and times. */
	__s32 status;
	__u32 pad;
	__s64 utime, stime;
};

/* The header is the parent's (the thread that forked); the child's ids
 * follow, the same two ways. */
/* The struct clone_args kept of a clone3 in progress (its v2 size). */
#define RCB_CLONE_ARGS 88

struct rcb_fork {
	struct rcb_header h;
	__u64 ns;
	__u32 child_tgid, child_tid;
	__u32 child_ns_tgid, child_ns_tid;	/* 0: not in the loader's namespace */
	/* The parent's call that forks, as its entry saw it (the reader
	 * shows it begun, before the child's calls, as a tracer would):
	 * HAS_ENTRY 0 when none was seen. */
	__s64 nr;
	__u64 args[6];
	__u64 enter_ns;
	__u32 has_entry;
	__u32 clone_args_len;	/* clone3's struct, at args[0]; 0 none */
	__u8 clone_args[RCB_CLONE_ARGS];
};

struct rcb_exit {
	struct rcb_header h;
	__u64 ns;
	__s32 exit_code;	/* task->exit_code: status << 8 | signal (| 0x80 core) */
	__u32 group_dead;	/* the last thread of its process */
};

/* Diagnosis mode: the fast reads and writes of a regular file that
 * moved bytes are summed in the kernel, per process, fd and direction,
 * after the first RCB_SUM_WHOLE of them, which are recorded whole (the
 * rules' evidence). A sum is written before the fd is closed (close,
 * dup2 onto it, close_range, exec) and before its process's end, so
 * that it is read while the fd still names its file; a read sum also
 * before its thread's next write recorded whole, which may pass on what
 * it read (a server sending a file). What a rule needs
 * of such calls is in it (small-io, repeated-open, slow-syscall's
 * shares); a call that failed, returned 0 (the end of the file), took
 * RCB_SUM_SLOW_NS or more, or wrote to fd 1 or 2 is never summed. */
#define RCB_SUM_WHOLE 3
#define RCB_SUM_SLOW_NS 10000000ULL
#define RCB_SUM_SIZES 4
#define RCB_SUM_BITS 65

/* The header is the thread that wrote it (it closed the fd, or ended
 * its process); FIRST_TID made the first call summed. */
struct rcb_sum {
	struct rcb_header h;
	__s64 nr;		/* the first call's number */
	__s32 fd;
	__u32 dir;		/* enum rcb_sum_dir */
	__u32 first_tid, first_ns_tid;
	__u32 threads;		/* 1, or 2: more than one thread made them */
	__u32 pad;
	__u64 calls, bytes;
	__u64 first_ns;		/* the first's entry (as diagnosis mode's clock has it) */
	__u64 last_ns;		/* when the sum was written (the fd closes) */
	__u64 time_ns;		/* blocked inside them, in all */
	/* The most frequent sizes asked for (Misra-Gries: the most frequent
	 * is among them), and the calls by the size's bit length. */
	__u64 size[RCB_SUM_SIZES], size_count[RCB_SUM_SIZES];
	__u64 hist[RCB_SUM_BITS];
};

/* Where in the code: for a call a finding may quote (failed, a connect
 * or bind, a wait of RCB_STACK_WAIT_NS or more), the thread's
 * user registers and the top of its user stack at the call's exit,
 * written just before the call's own record, for the loader to unwind
 * (the program runs on: its stack is copied, as perf's --call-graph
 * dwarf does). The copy is the first RCB_STACK_BYTES above sp, or
 * less where the stack ends sooner (LEN). */
#define RCB_STACK_BYTES 16384
/* How often the reader reads the ring while records come (it is woken
 * for a stack record only when none woke it for that long). */
#define RCB_BUSY_POLL_MS 2
#define RCB_STACK_WAIT_NS 10000000ULL
/* A sum's site copies (struct rcb_stack's SITE): of the calls of one
 * kind a process makes on one thing (opens of one file, large
 * mappings), the first RCB_SITE_DENSE are copied, then one in
 * RCB_SITE_EVERY: a loop of ten thousand opens costs 640 copies, and the
 * rules scale the sample to the calls they counted. A file is copied
 * from its first open when it is RCB_SITE_BIG_FILE or larger (reading it
 * again is what costs), else from its second (a file opened once is no
 * repeat, and a Python's start-up opens a thousand small ones). */
#define RCB_SITE_DENSE 16
#define RCB_SITE_EVERY 16
#define RCB_SITE_BIG_FILE (1ULL << 20)
#define RCB_SITE_BIG_MAP (16ULL << 20)

enum rcb_stack_reg {
	RCB_R_IP, RCB_R_SP, RCB_R_BP, RCB_R_BX, RCB_R_R12, RCB_R_R13, RCB_R_R14, RCB_R_R15, RCB_R_FS,
	RCB_NREGS
};

/* Python frames walked in the kernel, innermost first, with the walk
 * the loader gave for the process (struct rcb_py_walk): each frame's
 * code object and instruction, which the loader names from the
 * process's memory (code objects outlive their frames). */
#define RCB_PY_FRAMES 48

enum rcb_py_read {		/* event/stack.h's enum rc_py_read */
	RCB_PY_NOT_ASKED,	/* no walk for the process's program (yet) */
	RCB_PY_READ,
	RCB_PY_NO_THREAD,	/* no thread state is the thread's */
	RCB_PY_FAILED,		/* a read failed: the frames are not whole */
};

struct rcb_py_frame {
	__u64 code, instr;
	__u8 owner, entry;
	__u8 pad[2];
	__s32 tlbc;		/* thread-local bytecode index (3.14t); else 0 */
	/* The code object's mark at the call (event/stack.h,
	 * rc_py_code_mark: its name's and file's objects), which tells it
	 * from a later one at the same address; 0 when not read. */
	__u64 mark;
};

/* The frames of a thread the kernel holds (RCB_HOLD_SIGNAL), in the
 * `held` map by tid: the loader names their code objects from its
 * memory while it waits, without reading the ring first. */
struct rcb_held {
	__u32 tgid, npy;
	__u64 mm;		/* its program's memory then (a new one at each exec) */
	struct rcb_py_frame py[RCB_PY_FRAMES];
};

/* The names of code objects the loader has not named yet, read in the
 * kernel at the call (compact ASCII str objects: nearly every name and
 * file), for the innermost RCB_NAME_FRAMES frames, when no hold can give
 * the loader time to read them itself: a thread no watch traces (watch's
 * capture has no ptrace). A program that ends at once (a traceback, then
 * exit) has torn its code objects down before the loader reads them, and
 * a name missed there changes an incident's signature. The file keeps its
 * end (FILE_CUT) when its start does not fit: the base name stays. No line:
 * that needs the code object's line table, which the loader reads. */
#define RCB_NAME_FRAMES 4
#define RCB_NAME_LEN 64
#define RCB_FILE_LEN 192

struct rcb_py_name {
	__u64 code, mark;	/* the frame's (struct rcb_py_frame) */
	__u8 name_len, file_len;	/* 0: not read */
	__u8 file_cut;
	__u8 pad[5];
	char name[RCB_NAME_LEN];
	char file[RCB_FILE_LEN];
};

struct rcb_stack {
	struct rcb_header h;
	__u64 regs[RCB_NREGS];	/* enum rcb_stack_reg */
	__u64 mm;		/* the program's memory (a new one at each exec) */
	__u32 len;		/* bytes of STACK copied (0: none could be) */
	__u8 py_read;		/* enum rcb_py_read */
	__u8 py_truncated;	/* more frames than RCB_PY_FRAMES */
	__u8 npy;
	/* Copied at a call that worked, for where a sum's calls were made
	 * (rules/sites.h): a file opened again, a large mapping, a read of
	 * a file in small pieces, a wake of a long-waited lock. The rules
	 * count such calls whether copied or not (a sample of them is). */
	__u8 site;
	struct rcb_py_frame py[RCB_PY_FRAMES];
	__u32 nnames;		/* NAMES[0..NNAMES): PY's first ones */
	__u32 pad2;
	struct rcb_py_name names[RCB_NAME_FRAMES];
	__u8 stack[RCB_STACK_BYTES];
};

/* How to walk a process's Python frames (event/stack.h, struct
 * rc_py_walk), in the kernel's `pywalks` map by tgid, written by the
 * loader when a stack record shows it a Python it has no walk for. MM
 * ties it to one program: after an exec it no longer applies. Until the
 * loader writes one (RUNTIME 0), the kernel sends a stack record now and
 * then even at a call no finding quotes (a probe, at NEXT_PROBE_NS, the
 * gap between probes doubling from RCB_PROBE_FIRST_NS to
 * RCB_PROBE_MAX_NS), so that a failure that is the process's first copied
 * call has its Python frames walked too. */
#define RCB_PROBE_FIRST_NS 4000000ULL
#define RCB_PROBE_MAX_NS 2000000000ULL

struct rcb_py_walk {
	__u64 mm;
	__u64 runtime;		/* 0: no walk yet */
	__u64 next_probe_ns, probe_gap_ns;
	__s16 interp_head, threads_head, tstate_next, tstate_native_tid, tstate_thread_id, first_hop, second_hop,
		frame_code, frame_back, frame_instr, frame_owner, frame_entry, code_name, code_file;
	__u8 instr_size;
	__u8 pad;
	__s16 frame_tlbc;
	__u32 holds_left;	/* calls whose thread may still be held (RCB_HOLD_SIGNAL) */
	/* The bytes of a frame that hold the fields above, and of a code
	 * object that hold its name and file: each read in one piece, not
	 * field by field (each read of user memory costs the thread about
	 * as much as the copy of a field, and a frame had seven). */
	__u16 frame_lo, frame_len, code_lo, code_len;
	/* Where each field is within those bytes; RCB_FRAME_SPAN for a
	 * field the version lacks, which then reads as 0 from bytes the
	 * reads never reach. */
	__u8 in_code, in_back, in_instr, in_owner, in_entry, in_tlbc, in_name, in_file;
	/* A str object's length (8 bytes), state word (4), and where a
	 * compact ASCII one's text begins; -1: names are not read in the
	 * kernel (struct rcb_py_name). */
	__s16 str_length, str_state, str_ascii_data;
	__u8 str_compact_bit, str_ascii_bit;
};
/* The most of a frame and of a code object read (CPython 3.8 to 3.14:
 * 84 and 24 bytes); a layout that needs more gets no walk. */
#define RCB_FRAME_SPAN 128
#define RCB_CODE_SPAN 32

/* A thread whose copied call has Python frames run by code objects the
 * loader has not named yet, when the loader's watch (capture/watch.h)
 * traces it, is held right after the call until the loader has named
 * them from its memory: the kernel marks its tid (RCB_MARK_HOLD) and
 * sends it RCB_HOLD_SIGNAL, which the watch takes (a signal with no mark
 * is the program's, and passed on). A program that ends at once (a
 * traceback, then exit) has torn its code objects down before any later
 * read. The kernel leaves the held thread's frames in its `held_frames`
 * map (struct rcb_held), so that the loader names them at once, not
 * after the stacks of every call before (a busy start-up's backlog);
 * each frame's mark, read at the call, ties the name to the object
 * then, however late the call's copy is unwound. The loader marks the
 * code objects it has named (RCB_MARK_CODE): calls made again from them
 * (an import system's probes) hold nothing. RCB_HOLDS holds per program
 * at most. */
#define RCB_HOLD_SIGNAL 23	/* SIGURG: ignored by default, if one ever reached the program */
#define RCB_HOLDS 256
/* Only the innermost frames are looked at: an import's probes come from
 * the import system's few code objects, under ever new module bodies
 * (holding for each cost PyTorch's start-up 40%); a failure in the
 * program's own code is new where it was made, and the hold names the
 * whole stack. */
#define RCB_HOLD_FRAMES 4

enum rcb_mark {
	RCB_MARK_HOLD,		/* A: a held thread's tid */
	RCB_MARK_CODE,		/* A: a code object's address, B: its process */
	RCB_MARK_HOLDING,	/* the loader's watch traces the followed processes */
	/* A: a process (tgid): the stack records written for it, a count
	 * (until its end). Its exit need not wait for the loader once the
	 * loader has read as many (watch.h, exit_pending). */
	RCB_MARK_COPIES,
	/* A: a thread (the kernel's id), B: what of it the full ring buffer
	 * refused, a call's number or minus the rcb_kind of a record that is
	 * no call: how many. In this map, not one of its own: the loader
	 * runs under ulimit -n 32 and has no descriptor to spare. */
	RCB_MARK_LOST,
};

/* The kernel's `marks` map (least recently used go first): one map for
 * them all, as a low RLIMIT_NOFILE leaves the loader few descriptors. */
struct rcb_mark_key {
	__u64 a;
	__u32 b;
	__u32 kind;		/* enum rcb_mark */
};

/* A file that defines _PyRuntime, as the loader read it before any
 * process maps it (event/stack.h, struct rc_py_program), in the kernel's
 * `pyprograms` map by the file's device (the kernel's form) and inode.
 * A process that execs it (BASE RCB_PY_BASE_CODE: mm->start_code) or
 * maps it from offset 0 (RCB_PY_BASE_FILE: the loader's first mapping of
 * a libpython) gets its walk then, with _PyRuntime at the base plus
 * WALK.runtime: its first calls have their frames, with no probe. */
enum rcb_py_base {		/* event/stack.h's enum rc_py_base */
	RCB_PY_BASE_CODE,
	RCB_PY_BASE_FILE,
};

struct rcb_file_key {
	__u64 ino;
	__u32 dev;
	__u32 pad;
};

struct rcb_py_program {
	struct rcb_py_walk walk;
	__u32 base;		/* enum rcb_py_base */
	__u32 pad;
};

/* The sums in progress, a slot each in the kernel's `sums` array: the
 * loader writes out what is left when it detaches from processes that
 * live on. */
struct rcb_sum_key {
	__u32 tgid;
	__s32 fd;
	__u32 dir;
};

struct rcb_sum_state {
	struct rcb_sum s;
	struct rcb_sum_key key;
	__u32 used;		/* the slot holds KEY's sum */
	__u32 whole;		/* calls recorded whole so far */
	__u32 dev;		/* the file's (its inode's device and number) */
	__u64 ino;
};

#endif
