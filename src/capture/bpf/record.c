/* The eBPF capture's records, read back (see bpf.h): each checked
 * against its size and kind, and a call's items turned into the regions
 * of its memory that the decoders read (capture/call.h's mem_copies).
 * Built, and fuzzed, with or without libbpf. */
#include <errno.h>
#include <linux/types.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "capture/bpf/bpf.h"
#include "capture/bpf/record.h"
#include "event/syscalls.h"

/* Where the parse puts an exec's argv strings: an address no user
 * memory has (the kernel's half), so that no region of a real argument
 * can overlap it. */
#define ARGV_BASE 0xffff800000000000ULL

/* The kernel half keeps a write's head and tail as event.h's preview does. */
_Static_assert(RCB_DATA_END == RC_EVENT_DATA_HEAD && 2 * RCB_DATA_END == RC_EVENT_DATA_MAX,
	       "record.h's data ends are event.h's preview");

static struct rcb_plan_item *plan_add(struct rcb_plan *pl, unsigned *n, __u8 kind, unsigned arg, unsigned len_arg,
				      __u8 flags, __u16 size)
{
	static struct rcb_plan_item none;

	if (*n >= RCB_PLAN)
		return &none;
	pl->item[*n] = (struct rcb_plan_item){ .kind = kind, .arg = (__u8)arg, .len_arg = (__u8)len_arg,
					       .flags = flags, .size = size };
	return &pl->item[(*n)++];
}

/* Diagnosis mode's part of SC's plan (record.h, RCB_SUM): whether it is
 * summed, and which fd it closes, from the table's classes and roles. */
static void plan_sums(const struct rc_syscall *sc, unsigned len_arg, struct rcb_plan *pl)
{
	int fd = syscall_arg(sc, ROLE_FD), fd2 = syscall_arg(sc, ROLE_FD2);

	if ((sc->classes & CL_MEM_IO) && (sc->classes & (CL_READ | CL_WRITE)) && fd >= 0 && fd < 6) {
		pl->sum = (sc->classes & CL_READ) ? RCB_SUM_READ : RCB_SUM_WRITE;
		pl->sum_fd = (__u8)fd;
		pl->sum_len = len_arg < 6 ? (__u8)len_arg : 0xff;
	}
	if ((sc->classes & CL_EXEC) || sc->nr == SYS_close_range)
		pl->closes = RCB_CLOSES_ALL;
	else if (sc->nr == SYS_close && fd >= 0 && fd < 3)
		pl->closes = (__u8)(fd + 1);
	else if ((sc->classes & CL_DUP) && fd2 >= 0 && fd2 < 3)	/* dup2, dup3: onto FD2 */
		pl->closes = (__u8)(fd2 + 1);
}

void bpf_plan_of(const struct rc_syscall *sc, size_t print_bytes, struct rcb_plan *pl)
{
	unsigned n = 0, len_arg = 0xff;

	memset(pl, 0, sizeof(*pl));
	if (sc->classes & CL_FORK)
		pl->flags |= RCB_PLAN_FORK;
	if (sc->classes & CL_EXIT)
		pl->flags |= RCB_PLAN_NORETURN;
	for (unsigned i = 0; i < sc->nroles && i < 6; i++)
		if (sc->roles[i] == ROLE_LEN)
			len_arg = i;
	for (unsigned i = 0; i < sc->nroles && i < 6; i++) {
		switch (sc->roles[i]) {
		case ROLE_PATH:
			if (sc->classes & CL_EXEC)	/* LEN_ARG: its argv */
				plan_add(pl, &n, RCB_P_EXEC, i, (unsigned)syscall_arg(sc, ROLE_ARGV) & 0xff, 0, 0);
			else
				plan_add(pl, &n, RCB_P_STR, i, 0, 0, 0);
			break;
		case ROLE_PATH2:
			plan_add(pl, &n, RCB_P_STR, i, 0, 0, 0);
			break;
		case ROLE_SOCKADDR:
			plan_add(pl, &n, RCB_P_ADDR, i, i + 1, 0, 0);
			break;
		case ROLE_SOCKADDR_OUT:
			plan_add(pl, &n, RCB_P_ADDR_OUT, i, i + 1, 0, 0);
			break;
		case ROLE_DATA_OUT:
			if (len_arg < 6)
				plan_add(pl, &n, RCB_P_DATA_OUT, i, len_arg, 0, 0);
			break;
		case ROLE_DATA_IN:
			plan_add(pl, &n, RCB_P_DATA_IN, i, len_arg, 0, 0);
			break;
		case ROLE_TIMEOUT_TS:
		case ROLE_TIMEOUT_TV:
		case ROLE_FUTEX_TIMEOUT:
			plan_add(pl, &n, RCB_P_TIMEOUT, i, 0, 0, 0);
			break;
		/* The structs the decoders print, as much as they read. */
		case ROLE_STAT_BUF:
			plan_add(pl, &n, RCB_P_BYTES, i, 0, RCB_PF_OK, sizeof(struct stat));
			break;
		case ROLE_STATX_BUF:
			plan_add(pl, &n, RCB_P_BYTES, i, 0, RCB_PF_OK, 256);
			break;
		case ROLE_FD_PAIR:
			plan_add(pl, &n, RCB_P_BYTES, i, 0, RCB_PF_OK, 2 * sizeof(int));
			break;
		case ROLE_WSTATUS:
			plan_add(pl, &n, RCB_P_BYTES, i, 0, RCB_PF_OK, sizeof(int));
			break;
		case ROLE_OPEN_HOW:	/* struct open_how */
			plan_add(pl, &n, RCB_P_BYTES, i, 0, 0, 3 * sizeof(__u64));
			break;
		case ROLE_CLONE_ARGS:	/* its size is the next argument */
			plan_add(pl, &n, RCB_P_BYTES, i, i + 1, RCB_PF_COUNT_ARG, 1);
			break;
		case ROLE_FCNTL_ARG:	/* a struct flock, for the lock commands */
			plan_add(pl, &n, RCB_P_BYTES, i, 0, 0, 32);
			break;
		case ROLE_POLL_FDS:	/* nfds follows */
			plan_add(pl, &n, RCB_P_BYTES, i, i + 1, RCB_PF_COUNT_ARG, 8);
			break;
		case ROLE_EPOLL_EVENTS:	/* as many as it returned */
			plan_add(pl, &n, RCB_P_BYTES, i, 0, RCB_PF_OK | RCB_PF_COUNT_RET, 12);
			break;
		case ROLE_IOV_OUT:
		case ROLE_IOV_IN:	/* its count follows */
			plan_add(pl, &n, RCB_P_IOV, i, i + 1, 0, 0);
			break;
		case ROLE_MSGHDR_OUT:
		case ROLE_MSGHDR_IN:
			plan_add(pl, &n, RCB_P_MSGHDR, i, 0, 0, 0);
			break;
		case ROLE_MMSGHDR_OUT:
		case ROLE_MMSGHDR_IN:	/* vlen follows */
			plan_add(pl, &n, RCB_P_MMSGHDR, i, i + 1, 0, 0);
			break;
		case ROLE_GROUPS:	/* setgroups(size, list) */
			if (i > 0)
				plan_add(pl, &n, RCB_P_BYTES, i, i - 1, RCB_PF_COUNT_ARG, sizeof(__u32));
			break;
		case ROLE_RLIMIT_NEW:	/* struct rlimit64 (setrlimit's struct rlimit too, on 64 bits) */
			plan_add(pl, &n, RCB_P_BYTES, i, 0, 0, 2 * sizeof(__u64));
			break;
		case ROLE_RLIMIT_OLD:
			plan_add(pl, &n, RCB_P_BYTES, i, 0, RCB_PF_OK, 2 * sizeof(__u64));
			break;
		case ROLE_GROUPS_IN:	/* getgroups: as many as it returned */
			plan_add(pl, &n, RCB_P_BYTES, i, 0, RCB_PF_OK | RCB_PF_COUNT_RET, sizeof(__u32));
			break;
		case ROLE_READ_BUF:	/* for printing only: as much as is printed */
			if (print_bytes)
				plan_add(pl, &n, RCB_P_BYTES, i, 0, RCB_PF_OK | RCB_PF_COUNT_RET, 1)->max =
					(__u16)(print_bytes < RCB_BYTES_MAX ? print_bytes : RCB_BYTES_MAX);
			break;
		case ROLE_SOCKOPT_VALUE:
			/* getsockopt's length is a pointer to it, setsockopt's a value. */
			if (sc->nr == SYS_getsockopt)
				plan_add(pl, &n, RCB_P_BYTES, i, i + 1, RCB_PF_OK | RCB_PF_COUNT_PTR, 1);
			else
				plan_add(pl, &n, RCB_P_BYTES, i, i + 1, RCB_PF_COUNT_ARG, 1);
			break;
		default:
			break;
		}
	}
	plan_sums(sc, len_arg, pl);
}

/* The most an item of KIND holds, as the kernel half caps it: a record
 * that says more is not one of ours. */
static uint32_t item_max(uint8_t kind)
{
	switch (kind) {
	case RCB_I_STR:
		return RCB_STR_MAX;
	case RCB_I_BYTES:
		return RCB_BYTES_MAX;
	case RCB_I_HEAD:
	case RCB_I_TAIL:
		return RCB_DATA_END;
	case RCB_I_ARGV:
		return RCB_ARGV_MAX;
	case RCB_I_MEM:
		return RCB_BYTES_MAX;
	case RCB_I_LIVE:
		return sizeof(struct rcb_live);
	default:
		return 0;
	}
}

static int add_region(struct bpf_rec *r, uint64_t addr, const void *p, size_t len)
{
	if (r->nregions >= BPF_REC_REGIONS)
		return -1;
	r->region[r->nregions++] = (struct mem_region){ addr, p, len };
	return 0;
}

/* The argument a length that the call was given through a pointer sits
 * in: addrlen, optlen. Its value is the item's total. */
static int len_region(struct bpf_rec *r, const struct rcb_plan *pl, unsigned arg, uint64_t total)
{
	for (unsigned k = 0; k < RCB_PLAN; k++) {
		const struct rcb_plan_item *pi = &pl->item[k];
		if (pi->arg != arg || pi->len_arg >= 6)
			continue;
		if (pi->kind == RCB_P_ADDR_OUT || (pi->kind == RCB_P_BYTES && (pi->flags & RCB_PF_COUNT_PTR))) {
			if (r->nlens >= 2)
				return -1;
			r->lens[r->nlens] = (uint32_t)total;
			return add_region(r, r->call.args[pi->len_arg], &r->lens[r->nlens++], sizeof(uint32_t));
		}
	}
	return 0;
}

/* An exec's argv as the kernel's exec event kept it (NUL-separated): an
 * array of pointers at the argv argument, to the strings at ARGV_BASE,
 * ended by NULL unless the copy was cut. */
static int argv_regions(struct bpf_rec *r, const struct rc_syscall *sc, const char *argv, size_t n, bool cut)
{
	int at = -1;

	for (unsigned i = 0; i < sc->nroles && i < 6; i++)
		if (sc->roles[i] == ROLE_ARGV)
			at = (int)i;
	if (at < 0)
		return 0;
	size_t count = 0, off = 0;
	while (off < n && count < BPF_REC_ARGV) {
		r->argv_ptrs[count++] = ARGV_BASE + off;
		off += strnlen(argv + off, n - off) + 1;
	}
	size_t words = count;
	if (!cut && off >= n)
		r->argv_ptrs[words++] = 0;
	if (add_region(r, ARGV_BASE, argv, n) < 0)
		return -1;
	return add_region(r, r->call.args[at], r->argv_ptrs, words * sizeof(uint64_t));
}

static int parse_items(const unsigned char *rec, size_t size, struct bpf_rec *r)
{
	const struct rc_syscall *sc = syscall_by_nr(r->call.nr);
	struct rcb_plan pl;
	size_t off = sizeof(struct rcb_call);
	uint64_t head_total = 0;
	int head_arg = -1;

	memset(&pl, 0, sizeof(pl));
	if (sc)
		bpf_plan_of(sc, 0, &pl);
	for (uint32_t k = 0; k < r->call.nitems; k++) {
		struct rcb_item h;
		if (off > size || size - off < sizeof(h))
			return -1;
		memcpy(&h, rec + off, sizeof(h));
		off += sizeof(h);
		if (h.len > size - off || h.arg >= 6 || h.len > item_max(h.kind))
			return -1;
		const unsigned char *p = rec + off;
		off += (h.len + 7) & ~7u;
		uint64_t addr = r->call.args[h.arg];
		if (h.kind == RCB_I_TAIL && (head_arg != h.arg || h.len > head_total))
			return -1;
		if (h.fault || !h.len)
			continue;
		switch (h.kind) {
		case RCB_I_STR:
			if (add_region(r, addr, p, h.len) < 0)
				return -1;
			break;
		case RCB_I_BYTES:
			if (add_region(r, addr, p, h.len) < 0 || len_region(r, &pl, h.arg, h.total) < 0)
				return -1;
			break;
		case RCB_I_HEAD:
			head_arg = h.arg;
			head_total = h.total;
			if (add_region(r, addr, p, h.len) < 0)
				return -1;
			break;
		case RCB_I_TAIL:
			if (add_region(r, addr + head_total - h.len, p, h.len) < 0)
				return -1;
			break;
		case RCB_I_ARGV:
			if (!sc || argv_regions(r, sc, (const char *)p, h.len, h.total > h.len) < 0)
				return -1;
			break;
		case RCB_I_MEM:
			if (add_region(r, h.total, p, h.len) < 0)
				return -1;
			break;
		case RCB_I_LIVE:
			if (h.len != sizeof(r->live_copy))
				return -1;
			memcpy(&r->live_copy, p, sizeof(r->live_copy));
			r->live = &r->live_copy;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

int bpf_record_parse(const void *rec, size_t size, struct bpf_rec *r)
{
	/* Not the whole struct (5 KB, once per record): what the kind
	 * copies is whole, and the rest is counted from 0. */
	r->nregions = 0;
	r->nlens = 0;
	r->live = NULL;
	if (size < sizeof(r->h))
		return -1;
	memcpy(&r->h, rec, sizeof(r->h));
	switch (r->h.kind) {
	case RCB_CALL:
		if (size < sizeof(r->call))
			return -1;
		memcpy(&r->call, rec, sizeof(r->call));
		if ((r->call.flags & RCB_CALL_UNRETURNED) && r->call.nitems)
			return -1;
		return parse_items(rec, size, r);
	case RCB_SIGNAL:
		if (size < sizeof(r->sig))
			return -1;
		memcpy(&r->sig, rec, sizeof(r->sig));
		return 0;
	case RCB_EXIT:
		if (size < sizeof(r->exit))
			return -1;
		memcpy(&r->exit, rec, sizeof(r->exit));
		return 0;
	case RCB_FORK:
		if (size < sizeof(r->fork))
			return -1;
		memcpy(&r->fork, rec, sizeof(r->fork));
		if (r->fork.clone_args_len > RCB_CLONE_ARGS)
			return -1;
		if (r->fork.clone_args_len)
			add_region(r, r->fork.args[0], r->fork.clone_args, r->fork.clone_args_len);
		return 0;
	case RCB_STACK:
		if (size < sizeof(struct rcb_stack))
			return -1;
		r->stack = rec;
		if (r->stack->len > RCB_STACK_BYTES || r->stack->nnames > RCB_NAME_FRAMES)
			return -1;
		for (__u32 i = 0; i < r->stack->nnames; i++)
			if (r->stack->names[i].name_len >= RCB_NAME_LEN || r->stack->names[i].file_len >= RCB_FILE_LEN)
				return -1;
		return 0;
	case RCB_SUM:
		if (size < sizeof(r->sum))
			return -1;
		memcpy(&r->sum, rec, sizeof(r->sum));
		if (!r->sum.calls || r->sum.fd < 0 || (r->sum.dir != RCB_SUM_READ && r->sum.dir != RCB_SUM_WRITE) ||
		    r->sum.last_ns < r->sum.first_ns)
			return -1;
		return 0;
	default:
		return -1;
	}
}
