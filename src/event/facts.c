/* The call-level facts both sources need (see facts.h). */
#include "event/facts.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "gen/tables.h"
#include "util/util.h"

unsigned long long event_open_flags(unsigned long long v)
{
	/* strace names the access mode (O_ACCMODE for 3), the kernel's
	 * O_LARGEFILE bit and O_ASYNC's (as FASYNC): the fact is what the
	 * headers give those names, as a reader of its text takes them
	 * (O_LARGEFILE is 0 in 64-bit glibc, FASYNC is not an O_ name, and
	 * O_ACCMODE is a mask, no flag). */
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	static const struct {
		const char *name;
		unsigned long long bits;
	} named[] = { { "O_LARGEFILE", RC_KERNEL_O_LARGEFILE }, { "FASYNC", FASYNC } };
	static bool known;
	static long long mode[ARRAY_SIZE(modes)], value[ARRAY_SIZE(named)];

	if (!known) {
		for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
			if (!xlat_value(&rc_xlat_open_flag, modes[i], strlen(modes[i]), &mode[i]))
				mode[i] = 0;
		for (size_t i = 0; i < ARRAY_SIZE(named); i++)
			if (!xlat_value(&rc_xlat_open_flag, named[i].name, strlen(named[i].name), &value[i]))
				value[i] = 0;
		known = true;
	}
	unsigned long long f = (v & ~(unsigned long long)O_ACCMODE) | (unsigned long long)mode[v & O_ACCMODE];
	for (size_t i = 0; i < ARRAY_SIZE(named); i++)
		if ((v & named[i].bits) == named[i].bits)
			f = (f & ~named[i].bits) | (unsigned long long)value[i];
	return f;
}

/* The fact of argument I, whose raw value is V. */
static void raw_fact(struct rc_event *e, const struct rc_syscall *sc, unsigned i, uint64_t v,
		     const uint64_t args[RC_SC_MAX_ARGS], bool exiting, long long ret, int err)
{
	int fi;

	switch (sc->roles[i]) {
	case ROLE_FD:
		e->fd = (int)v;
		break;
	case ROLE_FD2:
		e->fd2 = (int)v;
		break;
	case ROLE_DIRFD:
		e->dirfd = (int)v;
		break;
	case ROLE_OPEN_FLAGS:
		e->flags = (long long)event_open_flags(v);
		break;
	case ROLE_PIPE_FLAGS:
	case ROLE_MMAP_FLAGS:
	case ROLE_MREMAP_FLAGS:
	case ROLE_CLONE_FLAGS:
		e->flags = (long long)v;
		break;
	case ROLE_SOCK_TYPE:
		e->flags = (unsigned int)v;
		break;
	case ROLE_MODE:
		fi = syscall_arg(sc, ROLE_OPEN_FLAGS);
		if (fi < 0 || event_open_reads_mode(args[fi]))
			e->mode = (unsigned short)v;
		break;
	case ROLE_PROT:
		e->mode = (long long)v;
		break;
	case ROLE_PROTOCOL:
		e->mode = (int)v;
		break;
	case ROLE_LEN:
		/* A byte count is signed: a negative one is none. */
		if ((long long)v >= 0)
			e->len = v;
		break;
	case ROLE_MAP_LEN:
		e->len = v;
		break;
	case ROLE_OFFSET:
		e->offset = (long long)v;
		break;
	case ROLE_ADDR:
		e->addr = v;
		break;
	case ROLE_FAMILY:
		e->sa.family = (int)v;
		break;
	case ROLE_SOCKOPT_LEVEL:
		e->sockopt_level = (int)v;
		break;
	case ROLE_SOCKOPT_NAME:
		e->sockopt_name = (int)v;
		break;
	case ROLE_TIMEOUT_MS:
		if ((int)v >= 0)
			e->timeout_ms = (int)v;
		break;
	case ROLE_FUTEX_OP:
		e->futex_op = (int)(v & FUTEX_CMD_MASK);
		break;
	case ROLE_FCNTL_CMD:
		/* The copy is the result: known at exit. */
		if (exiting)
			event_fcntl_dup_facts(e, (unsigned)v, !err, ret);
		break;
	case ROLE_FLOCK_OP:
		event_flock_facts(e, (long long)v);
		break;
	case ROLE_KILL_PID:
		e->has_kill_target = true;
		e->kill_target = (int)v;
		break;
	case ROLE_SIGNAL:
		if (v < 256)
			e->signo = (int)v;
		break;
	case ROLE_EXIT_CODE:
		e->exit_code = (int)v;
		break;
	case ROLE_RLIMIT_PID:
		e->rlimit_pid = (int)v;
		break;
	case ROLE_RESOURCE:
		e->resource = v < 64 ? (int)v : -1;
		break;
	case ROLE_ID:
		/* -1 leaves the id unchanged. */
		event_add_id(e, (unsigned)v == (unsigned)-1 ? -1 : (long long)(unsigned)v);
		break;
	default:	/* the roles of memory: the source reads them */
		break;
	}
}

/* Each half takes the facts of its arguments (event_arg_at_exit), and
 * the exit half also those the result completes. */
static void raw_facts(struct rc_event *e, const struct rc_syscall *sc, const uint64_t args[RC_SC_MAX_ARGS],
		      bool exiting, long long ret, int err)
{
	if (!sc)
		return;
	for (unsigned i = 0; i < sc->nroles && i < RC_SC_MAX_ARGS; i++)
		if (event_arg_at_exit(sc, i) == exiting || (exiting && sc->roles[i] == ROLE_FCNTL_CMD))
			raw_fact(e, sc, i, args[i], args, exiting, ret, err);
}

void event_raw_arg_facts(struct rc_event *e, const struct rc_syscall *sc, const uint64_t args[RC_SC_MAX_ARGS])
{
	raw_facts(e, sc, args, false, 0, 0);
}

void event_raw_exit_facts(struct rc_event *e, const struct rc_syscall *sc, const uint64_t args[RC_SC_MAX_ARGS],
			  long long ret, int err)
{
	raw_facts(e, sc, args, true, ret, err);
}
void event_call_facts(struct rc_event *e, const struct rc_syscall *sc, bool ret_known, long long ret, int err)
{
	bool ok = ret_known && err == 0;

	if (!sc)
		return;
	if ((sc->classes & CL_EMPTY_PATH_FD) && e->path && !e->path[0] && e->dirfd >= 0) {
		e->fd = e->dirfd;
		e->fd_shown = e->dir_shown;
	}
	if ((sc->classes & CL_RET_ADDR) && ok)
		e->addr = (uint64_t)ret;
	if (sc->classes & CL_CREATES)
		e->flags = O_CREAT | O_WRONLY | O_TRUNC;
	if (sc->classes & CL_ACCEPT)
		e->fd2 = ok && ret >= 0 && ret <= INT_MAX ? (int)ret : -1;
	if (e->len == 0 && ret_known && ret > 0 &&
	    (syscall_has_role(sc, ROLE_IOV_IN) || syscall_has_role(sc, ROLE_IOV_OUT)))
		e->len = (uint64_t)ret;
}

void event_siginfo_facts(struct rc_event *e, int signo, int code, uint64_t addr, int pid)
{
	e->signo = signo;
	e->si_code = code;
	switch (signo) {
	case SIGSEGV:
	case SIGBUS:
	case SIGILL:
	case SIGFPE:
	case SIGTRAP:
		if (code > 0) {
			e->has_fault_addr = true;
			e->fault_addr = addr;
		}
		break;
	default:
		if (code <= 0 || signo == SIGCHLD)
			e->sender_pid = pid;
		break;
	}
}

void event_clone_args_facts(struct rc_event *e, unsigned long long flags, unsigned long long exit_signal)
{
	e->flags = (long long)(flags | (exit_signal & 0xff));
}

void event_wait_status_facts(struct rc_event *e, int status)
{
	if (WIFSIGNALED(status)) {
		e->signo = WTERMSIG(status);
		e->core_dumped = WCOREDUMP(status);
	} else if (WIFEXITED(status)) {
		e->exit_code = WEXITSTATUS(status);
	}
}

void event_add_id(struct rc_event *e, long long id)
{
	if (e->nids < RC_EVENT_MAX_IDS)
		e->ids[e->nids++] = id;
	else
		e->ids_truncated = true;
}

void event_data_ends(uint64_t total, size_t max, size_t *head, size_t *tail)
{
	*head = total <= max ? (size_t)total : max / 2;
	*tail = total <= max ? 0 : max - *head;
}

void event_data_facts(struct rc_event *e, const unsigned char *bytes, size_t head, size_t tail, uint64_t total)
{
	e->data = bytes;
	e->data_len = bytes ? head + tail : 0;
	e->data_gap = bytes && tail ? head : 0;
	e->data_omitted = bytes && tail ? total - head - tail : 0;
	e->data_truncated = !tail && head < total;
}

void event_keep_ends(struct rc_event *e, unsigned char *dst, size_t max, const unsigned char *src, size_t n)
{
	size_t head, tail;

	event_data_ends(n, max, &head, &tail);
	memcpy(dst, src, head);
	if (tail)
		memcpy(dst + head, src + n - tail, tail);
	event_data_facts(e, dst, head, tail, n);
}

void event_timeout_facts(struct rc_event *e, double sec)
{
	if (sec >= 0)
		e->timeout_ms = event_secs_to_ms(sec);
}

bool event_futex_timeout_facts(struct rc_event *e, int cmd, double sec, bool realtime)
{
	switch (cmd) {
	case FUTEX_WAIT:
		e->timeout_ms = event_secs_to_ms(sec);
		return false;
	case FUTEX_WAIT_BITSET:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_REQUEUE_PI:
#ifdef FUTEX_LOCK_PI2
	case FUTEX_LOCK_PI2:
#endif
		if (!realtime && cmd != FUTEX_LOCK_PI)
			return false;
		e->timeout_ms = event_deadline_ms(e, sec);
		return true;
	default:
		return false;
	}
}

void event_stat_size_facts(struct rc_event *e, bool ok, long long size)
{
	if (ok)
		e->st_size = size;
}

void event_open_how_facts(struct rc_event *e, unsigned long long flags, unsigned long long mode)
{
	e->flags = (long long)flags;
	if (event_open_reads_mode(flags) || mode)
		e->mode = (long long)mode;
}

/* The part of sockaddr_in6 before sin6_scope_id: shorter addresses (the
 * RFC 2133 layout) have no scope id, and are addresses all the same. */
#define SIN6_MIN_LEN offsetof(struct sockaddr_in6, sin6_scope_id)

ssize_t event_sockaddr_facts(struct rc_sockaddr *sa, const unsigned char *buf, size_t len,
			     char host[RC_SOCKADDR_HOST_MAX])
{
	sa_family_t family;
	size_t n;

	if (len < sizeof(family))
		return -1;
	memcpy(&family, buf, sizeof(family));
	sa->family = family;
	if (family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in sin;
		memcpy(&sin, buf, sizeof(sin));
		inet_ntop(AF_INET, &sin.sin_addr, host, RC_SOCKADDR_HOST_MAX);
		sa->port = ntohs(sin.sin_port);
		return (ssize_t)strlen(host);
	}
	if (family == AF_INET6 && len >= SIN6_MIN_LEN) {
		struct sockaddr_in6 sin6;
		memset(&sin6, 0, sizeof(sin6));
		memcpy(&sin6, buf, MIN(len, sizeof(sin6)));
		inet_ntop(AF_INET6, &sin6.sin6_addr, host, RC_SOCKADDR_HOST_MAX);
		sa->port = ntohs(sin6.sin6_port);
		return (ssize_t)strlen(host);
	}
	if (family != AF_UNIX)
		return -1;
	sa->port = -1;
	if (len == sizeof(family))
		return -1;
	/* An abstract name is all the bytes after its NUL, NULs included;
	 * a path ends at its first. */
	const char *path = (const char *)buf + offsetof(struct sockaddr_un, sun_path);
	n = len - offsetof(struct sockaddr_un, sun_path);
	if (path[0]) {
		n = strnlen(path, n);
	} else {
		sa->abstract = true;
		path++;
		n--;
	}
	memcpy(host, path, n);
	host[n] = '\0';
	return (ssize_t)n;
}

void event_rlimit_facts(struct rc_event *e, bool in_force, const uint64_t lim[2])
{
	uint64_t *to = in_force ? e->rlim_old : e->rlim_new;

	to[0] = lim[0];
	to[1] = lim[1];
	if (in_force)
		e->has_rlim_old = true;
	else
		e->has_rlim_new = true;
}
